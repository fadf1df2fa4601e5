// Shared by the media-buy.* checks: the lifecycle flow's steps (harness/capture/media-buy-flow.ts), the
// buy it booked, what a read-back says of that buy, and the verdicts that stand in when there is nothing
// to judge — the flow did not run, its booking failed, a step the judged one needs was not made.
import type { AgentCapture } from '../../record/exchange.ts';
import { buyIn, MB_STEP, MEDIA_BUY_FLOW, mediaBuyIdOf, SANDBOX_ONLY } from '../../capture/media-buy-flow.ts';
import { failAcross, notApplicable, onCall, pass, untested, type AgentVerdict, type CheckContext, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { answerOf, at, codeOf, notRun, scenarioSteps, type Step } from '../scenario-view.ts';
import { adcpVersionOf, payloadOrVerdict, type PayloadView } from '../views.ts';

/** The statuses of an answer that is not the booking yet (the task went asynchronous). */
export const ASYNC_STATUSES: readonly string[] = ['submitted', 'working', 'input-required'];

export interface Lifecycle {
  steps: Step[];
  book: Step;
  /** The first step named `name`, if it was made. */
  step(name: string): Step | undefined;
}

/** The flow's steps with its booking, or the verdicts (one, about `subject`) when it did not get that far. */
export function lifecycle(a: AgentCapture, subject: string): Lifecycle | { verdicts: AgentVerdict[] } {
  const skipped = a.agent?.sandbox === false ? notApplicable(SANDBOX_ONLY) : notRun(a, MEDIA_BUY_FLOW);
  if (skipped) return { verdicts: [{ subject, verdict: skipped }] };
  const steps = scenarioSteps(a, MEDIA_BUY_FLOW);
  const step = (name: string): Step | undefined => steps.find((s) => s.step === name);
  const book = step(MB_STEP.book);
  if (!book) return { verdicts: [{ subject, verdict: untested('the flow booked nothing (the session ended first)') }] };
  return { steps, book, step };
}

/** Whether the agent's tool list names `tool`. */
export function listsTool(a: AgentCapture, tool: string): boolean {
  const list = a.toolsList;
  return list?.ok === true && Array.isArray(list.tools) && list.tools.some((t) => own(t, 'name') === tool);
}

/** The booking's payload and media_buy_id, or the verdict for every later rule: there is no buy to follow. */
export function bookedBuy(flow: Lifecycle): { id: string; payload: PayloadView } | { verdict: Verdict } {
  const { book } = flow;
  const answer = answerOf(book.x, book.call);
  if (answer.kind === 'none') return { verdict: answer.verdict };
  if (answer.kind !== 'success') {
    const found = answer.kind === 'bare-jsonrpc' ? answer.found : `an AdCP error ${preview(own(answer.error, 'code'))}`;
    return {
      verdict: untested(
        `the booking of a non-guaranteed product the seller offered (call ${book.call}) was refused (${found}): no buy to follow`,
      ),
    };
  }
  const payload = payloadOrVerdict(book.x);
  if ('verdict' in payload) return { verdict: onCall(payload.verdict, book.call) };
  const id = mediaBuyIdOf(book.x);
  if (id !== undefined) return { id, payload };
  const status = own(payload.data, 'status');
  return {
    verdict:
      typeof status === 'string' && ASYNC_STATUSES.includes(status)
        ? untested(
            `the booking (call ${book.call}) did not complete at once (status ${preview(status)}): see media-buy.read-after-write`,
            undefined,
            book.call,
          )
        : untested(`the booking answer (call ${book.call}) names no usable media_buy_id: see schema.adcp-response`, undefined, book.call),
  };
}

/** The buy as a get_media_buys step shows it, or why there is none (read-after-write owns a missing buy). */
export function readBack(
  s: Step | undefined,
  id: string,
  what: string,
): { item: Record<string, unknown>; pointer: string; s: Step } | { verdict: Verdict } {
  if (!s) return { verdict: untested(`the ${what} read-back was not made (the flow stopped before it)`) };
  const answer = answerOf(s.x, s.call);
  if (answer.kind === 'none') return { verdict: answer.verdict };
  const item = buyIn(s.x, id);
  const payload = payloadOrVerdict(s.x);
  if (!item || 'verdict' in payload) {
    return {
      verdict: untested(`get_media_buys (call ${s.call}) did not return ${preview(id)}: see media-buy.read-after-write`, undefined, s.call),
    };
  }
  const buys = own(payload.data, 'media_buys') as unknown[];
  return { item, pointer: `${payload.pointer}/media_buys/${buys.indexOf(item)}`, s };
}

/** The status of a buy as an answer states it: `media_buy_status` (3.1), else the buy's `status`. */
export function buyStatus(buy: unknown, canonicalFirst: boolean): { status: string; field: string } | undefined {
  const fields = canonicalFirst ? ['media_buy_status', 'status'] : ['status', 'media_buy_status'];
  for (const field of fields) {
    const v = own(buy, field);
    if (typeof v === 'string') return { status: v, field };
  }
  return undefined;
}

/** Whether the call was served at AdCP 3.1 or later (its `adcp_version` echo, else the release judged). */
export function servedAt31(s: Step, ctx: CheckContext): boolean {
  const payload = payloadOrVerdict(s.x);
  const v = adcpVersionOf('verdict' in payload ? null : payload.data, ctx);
  return v.major > 3 || (v.major === 3 && v.minor >= 1);
}

/**
 * A step the seller must refuse with `code`: the AdCP error with that code passes; a success, another
 * code or a bare JSON-RPC error fails (with `related`, the calls the refusal is judged against).
 */
export function refusedWith(s: Step, code: string, want: string, related: readonly number[]): Verdict {
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success': {
      const payload = payloadOrVerdict(s.x);
      const pointer = 'verdict' in payload ? '/result/isError' : payload.pointer;
      const booked = s.x.tool === 'create_media_buy' && !('verdict' in payload) ? own(payload.data, 'media_buy_id') : undefined;
      const what = booked === undefined ? 'the seller applied it' : `the seller booked it as ${preview(booked)}`;
      return failAcross(at(s, pointer), want, `a success (call ${s.call}): ${what}`, related);
    }
    case 'bare-jsonrpc':
      return failAcross(at(s, '/error'), want, answer.found, related);
  }
  const found = codeOf(answer.error, s.call);
  if ('verdict' in found) return found.verdict;
  return found.code === code
    ? pass()
    : failAcross(at(s, `${answer.pointer}/code`), want, `${preview(found.code)}: ${preview(own(answer.error, 'message'))}`, related);
}
