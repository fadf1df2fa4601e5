// media-buy.revision — the optimistic-concurrency token: `revision` is in the booking and every update
// answer (and, from AdCP 3.1, in get_media_buys), it moves forward on every update (pause, resume,
// cancel), and an update naming a revision the buy no longer has is refused with CONFLICT and applied
// nowhere. A token that never moves, or a stale one that is accepted, lets two writers overwrite each other.
import type { AgentCapture } from '../../record/exchange.ts';
import { MB_STEP, revisionValue } from '../../capture/media-buy-flow.ts';
import { isSuccess } from '../../capture/scenario-facts.ts';
import {
  defineCheck,
  fail,
  failAcross,
  notApplicable,
  pass,
  untested,
  type AgentVerdict,
  type CheckContext,
  type Verdict,
} from '../check.ts';
import { own, preview } from '../../json.ts';
import { at, type Step } from '../scenario-view.ts';
import { payloadOrVerdict } from '../views.ts';
import { bookedBuy, lifecycle, readBack, refusedWith, servedAt31, type Lifecycle } from './_flow.ts';

const BOOK = 'create_media_buy';

const UPDATES = [
  { step: MB_STEP.pause, read: MB_STEP.readPaused, what: 'pause' },
  { step: MB_STEP.resume, read: MB_STEP.readResumed, what: 'resume' },
  { step: MB_STEP.cancel, read: MB_STEP.readCanceled, what: 'cancel' },
] as const;

/** The last revision the seller stated for the buy, and in which call. */
interface Seen {
  revision: number;
  call: number;
}

/** A revision the seller states in an answer (the booking, an update) or a read, if it is one. */
function stated(s: Step | undefined, id: string, read: boolean): Seen | undefined {
  if (!s || !isSuccess(s.x)) return undefined;
  if (read) {
    const found = readBack(s, id, '');
    return 'verdict' in found ? undefined : withCall(revisionValue(own(found.item, 'revision')), s.call);
  }
  const payload = payloadOrVerdict(s.x);
  return 'verdict' in payload ? undefined : withCall(revisionValue(own(payload.data, 'revision')), s.call);
}

const withCall = (revision: number | undefined, call: number): Seen | undefined =>
  revision === undefined ? undefined : { revision, call };

/** An answer that must state the buy's revision (a success): present and an integer. */
function present(s: Step, what: string): Verdict {
  const payload = payloadOrVerdict(s.x);
  if ('verdict' in payload) return payload.verdict;
  const r = own(payload.data, 'revision');
  return revisionValue(r) !== undefined
    ? pass()
    : fail(at(s, `${payload.pointer}/revision`), `revision (an integer) in the ${what} answer`, r === undefined ? 'absent' : preview(r));
}

function updates(flow: Lifecycle, id: string, first: Seen | undefined): AgentVerdict[] {
  const out: AgentVerdict[] = [];
  let last = first;
  for (const u of UPDATES) {
    const subject = `update_media_buy (${u.what})`;
    const s = flow.step(u.step);
    if (!s || !isSuccess(s.x)) {
      const why = !s
        ? `the ${u.what} was not made (an earlier step failed or the flow stopped)`
        : `the ${u.what} (call ${s.call}) did not succeed: see media-buy.transitions`;
      out.push({ subject, verdict: untested(why, undefined, s?.call) });
      continue;
    }
    const has = present(s, u.what);
    const now = stated(s, id, false);
    if (has.status !== 'pass' || !now) {
      out.push({ subject, verdict: has });
      continue;
    }
    if (last && now.revision <= last.revision) {
      out.push({
        subject,
        verdict: failAcross(
          at(s, `${(payloadOrVerdict(s.x) as { pointer: string }).pointer}/revision`),
          `a revision above ${last.revision} (stated in call ${last.call}): every update moves it`,
          `${now.revision}: the ${u.what} did not move it`,
          [last.call],
        ),
      });
    } else out.push({ subject, verdict: pass() });
    last = now;
    // A stale update accepted in between moved it too; the resume is judged against that.
    if (u.step === MB_STEP.pause) last = stated(flow.step(MB_STEP.staleRevision), id, false) ?? stated(flow.step(u.read), id, true) ?? last;
    else last = stated(flow.step(u.read), id, true) ?? last;
  }
  return out;
}

/** The update naming the revision the buy had before the pause: CONFLICT, nothing applied. */
function stale(flow: Lifecycle, id: string, before: Seen | undefined): Verdict {
  const s = flow.step(MB_STEP.staleRevision);
  const pause = flow.step(MB_STEP.pause);
  if (!s) {
    if (!before) return untested('the buy stated no revision before the pause, so none could go stale (see the create_media_buy subject)');
    return untested(
      pause && !isSuccess(pause.x)
        ? `the pause (call ${pause.call}) did not succeed, so no revision went stale: see media-buy.transitions`
        : 'the stale update was not made (the flow stopped before it)',
    );
  }
  const sent = revisionValue(own(s.x.request.arguments, 'revision'));
  const current = stated(pause, id, false) ?? stated(flow.step(MB_STEP.readPaused), id, true);
  if (sent === undefined || !current) return untested('the pause stated no revision, so whether the one sent is stale is unknown');
  if (current.revision === sent)
    return untested(
      `the pause (call ${current.call}) left the revision at ${sent}, so the update sent no stale value (that is the pause's finding)`,
    );
  return refusedWith(s, 'CONFLICT', `CONFLICT: revision ${sent} is stale (call ${current.call} stated ${current.revision})`, [
    current.call,
  ]);
}

export default defineCheck({
  id: 'media-buy.revision',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    '`revision` is in the booking and update answers (and get_media_buys from 3.1), moves on every update, and a stale `revision` gets CONFLICT',
  spec: {
    label:
      'AdCP · media-buy/specification ("MUST include revision in create, get, and update responses … MUST increment on every mutating state change"); update_media_buy › revision ("Seller rejects with CONFLICT on mismatch")',
    url: 'https://adcontextprotocol.org/docs/media-buy/specification',
  },
  fix: 'store a revision with each buy, return it on create_media_buy, get_media_buys and update_media_buy, increment it on every applied update, and compare a request\'s `revision` with it atomically: on mismatch answer `{"adcp_error":{"code":"CONFLICT","recovery":"transient",…}}` and change nothing',
  judge(a: AgentCapture, ctx: CheckContext): AgentVerdict[] {
    const flow = lifecycle(a, BOOK);
    if ('verdicts' in flow) return flow.verdicts;
    const found = bookedBuy(flow);
    if ('verdict' in found) return [{ subject: BOOK, verdict: found.verdict }];
    const out: AgentVerdict[] = [{ subject: BOOK, verdict: present(flow.book, BOOK) }];
    const read = flow.step(MB_STEP.readById);
    if (read) {
      const item = readBack(read, found.id, 'by-id');
      let verdict: Verdict;
      if (!servedAt31(read, ctx))
        verdict = notApplicable('AdCP 3.0 requires revision in create and update answers only (media-buy/specification)');
      else if ('verdict' in item) verdict = item.verdict;
      else {
        const r = own(item.item, 'revision');
        verdict =
          revisionValue(r) !== undefined
            ? pass()
            : fail(at(read, `${item.pointer}/revision`), 'revision (an integer) on the buy', r === undefined ? 'absent' : preview(r));
      }
      out.push({ subject: 'get_media_buys', verdict });
    }
    const first = stated(flow.book, found.id, false);
    const beforePause = stated(read, found.id, true) ?? first;
    out.push(...updates(flow, found.id, beforePause));
    out.push({ subject: 'update_media_buy (stale revision)', verdict: stale(flow, found.id, beforePause) });
    return out;
  },
});
