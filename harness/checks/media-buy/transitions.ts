// media-buy.transitions — the buy's state machine as a buyer drives it: a pause reads back paused, a
// resume reads back live again, a cancel reads back canceled with every other field of that request
// ignored; a second cancel gets NOT_CANCELLABLE and any other update of the canceled buy INVALID_STATE.
// Update answers that list `affected_packages` list full packages, never `{package_id}` stubs.
import type { AgentCapture } from '../../record/exchange.ts';
import { firstPackage, LIVE_STATUSES, MB_STEP } from '../../capture/media-buy-flow.ts';
import { isSuccess } from '../../capture/scenario-facts.ts';
import { defineCheck, failAcross, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { isObject, own, preview } from '../../json.ts';
import { answerOf, at, codeOf, type Step } from '../scenario-view.ts';
import { payloadOrVerdict } from '../views.ts';
import { bookedBuy, buyStatus, lifecycle, listsTool, readBack, refusedWith, type Lifecycle } from './_flow.ts';

/** Refusals that say the seller does not offer the action on this buy (a business rule, not a broken state machine). */
const NOT_OFFERED = ['INVALID_STATE', 'ACTION_NOT_ALLOWED', 'UNSUPPORTED_FEATURE', 'NOT_CANCELLABLE'];

/** Statuses a resumed buy may read back in: live and not paused (a buy whose flight has not started, or that awaits creatives, is live too). */
const RESUMED: readonly string[] = LIVE_STATUSES.filter((s) => s !== 'paused');

/** Full packages: every item an object with more than its package_id (update_media_buy.mdx: "MUST NOT return { package_id }-only stubs"). */
function fullPackages(s: Step): Verdict | undefined {
  const payload = payloadOrVerdict(s.x);
  if ('verdict' in payload) return undefined;
  const list = own(payload.data, 'affected_packages');
  if (!Array.isArray(list)) return undefined;
  const stub = list.findIndex((p) => !isObject(p) || Object.keys(p).every((k) => k === 'package_id'));
  if (stub < 0) return undefined;
  return failAcross(
    at(s, `${payload.pointer}/affected_packages/${stub}`),
    'a full package (its post-update state), not a `{package_id}` stub',
    preview(list[stub]),
    [],
  );
}

/**
 * An update that must be applied, then read back in one of `want`: the read (or, without get_media_buys,
 * the answer's own media_buy_status) is the evidence, with the update as the related call.
 */
function applied(
  flow: Lifecycle,
  id: string,
  stepName: string,
  readName: string,
  what: string,
  want: readonly string[],
  reads: boolean,
): Verdict {
  const s = flow.step(stepName);
  if (!s) return untested(`the ${what} was not made (an earlier step failed or the flow stopped)`);
  const answer = answerOf(s.x, s.call);
  if (answer.kind === 'none') return answer.verdict;
  const expected = `the buy ${what === 'cancel' ? 'canceled' : what === 'pause' ? 'paused' : 'live again'} (${want.join(' or ')})`;
  if (answer.kind === 'bare-jsonrpc') return failAcross(at(s, '/error'), expected, answer.found, []);
  if (answer.kind === 'adcp-error') {
    const code = codeOf(answer.error, s.call);
    if ('verdict' in code) return code.verdict;
    if (NOT_OFFERED.includes(code.code) && what !== 'resume')
      return untested(
        `the seller does not offer the ${what} on this buy (${code.code}, call ${s.call}): that part of the lifecycle was not exercised`,
      );
    return failAcross(at(s, `${answer.pointer}/code`), expected, `${preview(code.code)}: ${preview(own(answer.error, 'message'))}`, []);
  }
  const stubs = fullPackages(s);
  if (stubs) return stubs;
  if (!reads) {
    const payload = payloadOrVerdict(s.x);
    const stated = 'verdict' in payload ? undefined : buyStatus(payload.data, true);
    if (!stated || stated.field !== 'media_buy_status')
      return untested(`the agent does not list get_media_buys and the ${what} answer states no media_buy_status: the state cannot be read`);
    return want.includes(stated.status)
      ? pass()
      : failAcross(at(s, `${(payload as { pointer: string }).pointer}/media_buy_status`), expected, preview(stated.status), []);
  }
  const read = readBack(flow.step(readName), id, `${what}`);
  if ('verdict' in read) return read.verdict;
  const status = own(read.item, 'status');
  if (typeof status === 'string' && want.includes(status)) return pass();
  return failAcross(
    at(read.s, `${read.pointer}/status`),
    expected,
    `${preview(status)}: get_media_buys (call ${read.s.call}) after update_media_buy (call ${s.call})`,
    [s.call],
  );
}

/** The cancel ignored the other fields it carried: the package budget it named is unchanged. */
function cancelIgnoredExtras(flow: Lifecycle, id: string): Verdict | undefined {
  const cancel = flow.step(MB_STEP.cancel);
  const after = readBack(flow.step(MB_STEP.readCanceled), id, 'cancel');
  if (!cancel || 'verdict' in after) return undefined;
  const sent = own(cancel.x.request.arguments, 'packages');
  const named: unknown = Array.isArray(sent) ? sent[0] : undefined;
  const packageId = own(named, 'package_id');
  const before = [flow.step(MB_STEP.readResumed), flow.step(MB_STEP.readPaused), flow.step(MB_STEP.readById)]
    .map((s) => (s ? readBack(s, id, '') : undefined))
    .find((r) => r !== undefined && !('verdict' in r));
  const was = before && !('verdict' in before) ? firstPackage(before.item) : undefined;
  const now = firstPackage(after.item);
  if (!was || !now || was.packageId !== packageId || now.packageId !== packageId || was.budget === undefined) return undefined;
  if (now.budget === was.budget) return undefined;
  return failAcross(
    at(after.s, `${after.pointer}/packages/0/budget`),
    `budget ${was.budget}: a cancel ignores every other field of its request`,
    `${preview(now.budget)}: the cancel (call ${cancel.call}) also applied its package budget`,
    [cancel.call],
  );
}

/** A step on the canceled buy that must be refused with `code`. */
function refusedOnCanceled(flow: Lifecycle, stepName: string, code: string, what: string): Verdict {
  const cancel = flow.step(MB_STEP.cancel);
  const s = flow.step(stepName);
  if (!s) {
    return untested(
      cancel && isSuccess(cancel.x)
        ? `the ${what} was not made (the flow stopped before it)`
        : 'the buy was not canceled (see the cancel subject), so nothing could be tried on a canceled buy',
    );
  }
  return refusedWith(s, code, `${code}: ${what} of a buy already canceled (call ${cancel?.call ?? '?'})`, cancel ? [cancel.call] : []);
}

export default defineCheck({
  id: 'media-buy.transitions',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    'pause reads back paused, resume live again, cancel canceled (its other fields ignored); cancel again → NOT_CANCELLABLE, any other update of a canceled buy → INVALID_STATE; affected_packages are full packages',
  spec: {
    label:
      'AdCP · media-buy/specification › Media Buy Lifecycle ("already in canceled … MUST reject with NOT_CANCELLABLE"; "All other updates to media buys in terminal states … MUST be rejected with INVALID_STATE"); update_media_buy › affected_packages',
    url: 'https://adcontextprotocol.org/docs/media-buy/specification',
  },
  fix: 'apply `paused: true|false` and `canceled: true` to the stored buy (a cancel ignores every other field), refuse `canceled: true` on a canceled buy with NOT_CANCELLABLE and any other update of it with INVALID_STATE, and return each touched package whole in `affected_packages`',
  judge(a: AgentCapture): AgentVerdict[] {
    const flow = lifecycle(a, 'update_media_buy (pause)');
    if ('verdicts' in flow) return flow.verdicts;
    const found = bookedBuy(flow);
    if ('verdict' in found) return [{ subject: 'update_media_buy (pause)', verdict: found.verdict }];
    const reads = listsTool(a, 'get_media_buys') || flow.steps.some((s) => s.x.tool === 'get_media_buys');
    const id = found.id;
    const pause = flow.step(MB_STEP.pause);
    const resume =
      pause && !isSuccess(pause.x) && !flow.step(MB_STEP.resume)
        ? untested(`the pause (call ${pause.call}) did not succeed, so there was nothing to resume`)
        : applied(flow, id, MB_STEP.resume, MB_STEP.readResumed, 'resume', RESUMED, reads);
    const cancel = applied(flow, id, MB_STEP.cancel, MB_STEP.readCanceled, 'cancel', ['canceled'], reads);
    return [
      { subject: 'update_media_buy (pause)', verdict: applied(flow, id, MB_STEP.pause, MB_STEP.readPaused, 'pause', ['paused'], reads) },
      { subject: 'update_media_buy (resume)', verdict: resume },
      {
        subject: 'update_media_buy (cancel, with other fields)',
        verdict: cancel.status === 'pass' ? (cancelIgnoredExtras(flow, id) ?? cancel) : cancel,
      },
      {
        subject: 'update_media_buy (cancel again)',
        verdict: refusedOnCanceled(flow, MB_STEP.cancelAgain, 'NOT_CANCELLABLE', 'a second cancel'),
      },
      {
        subject: 'update_media_buy (pause a canceled buy)',
        verdict: refusedOnCanceled(flow, MB_STEP.updateCanceled, 'INVALID_STATE', 'a pause'),
      },
    ];
  },
});
