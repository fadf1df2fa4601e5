// media-buy.read-after-write — a buy the seller just booked is there when the buyer reads: get_media_buys
// returns it by id and in the account's list, with the id, revision, status and currency the booking
// answered. A non-guaranteed booking completes at once (AdCP 3.1: "MUST return synchronous success"),
// so there is a buy to read. A miss rests on two calls: the booking and the read are both the evidence.
import type { AgentCapture } from '../../record/exchange.ts';
import { buyIn, isListStep, MB_STEP } from '../../capture/media-buy-flow.ts';
import { pageInfo, successPayload } from '../../capture/scenario-facts.ts';
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
import { answerOf, at, type Step } from '../scenario-view.ts';
import { payloadOrVerdict, type PayloadView } from '../views.ts';
import { ASYNC_STATUSES, bookedBuy, buyStatus, lifecycle, listsTool, servedAt31, type Lifecycle } from './_flow.ts';

const BOOK = 'create_media_buy (non-guaranteed)';
const BY_ID = 'get_media_buys (by id)';
const LIST = 'get_media_buys (account list)';

/** The booking itself: a non-guaranteed buy is answered at once, with its media_buy_id. */
function booking(flow: Lifecycle, ctx: CheckContext): Verdict {
  const found = bookedBuy(flow);
  if (!('verdict' in found)) return pass();
  const payload = payloadOrVerdict(flow.book.x);
  const status = 'verdict' in payload ? undefined : own(payload.data, 'status');
  if ('verdict' in payload || typeof status !== 'string' || !ASYNC_STATUSES.includes(status)) return found.verdict;
  if (!servedAt31(flow.book, ctx))
    return notApplicable(
      `the booking went asynchronous (status ${preview(status)}); AdCP 3.0 lets it (the synchronous answer for a non-guaranteed product is a 3.1 rule): no buy to read back yet`,
    );
  return fail(
    at(flow.book, `${payload.pointer}/status`),
    'a synchronous success carrying media_buy_id (every product booked is non-guaranteed)',
    `status ${preview(status)}: the booking was deferred`,
  );
}

/** The fields the read must agree on with the booking, where both state them. */
function sameBuy(book: PayloadView, read: Step, item: Record<string, unknown>, pointer: string, call: number): Verdict {
  const bookStatus = buyStatus(book.data, true);
  const comparable: Array<[string, unknown, unknown]> = [
    ['revision', own(book.data, 'revision'), own(item, 'revision')],
    ['currency', own(book.data, 'currency'), own(item, 'currency')],
    // The booking's buy state is `media_buy_status` (3.1); its top-level `status` is the task's on the MCP wire.
    ['status', bookStatus?.field === 'media_buy_status' ? bookStatus.status : undefined, own(item, 'status')],
  ];
  for (const [field, booked, readBack] of comparable) {
    if (booked === undefined || readBack === undefined || booked === readBack) continue;
    return failAcross(
      at(read, `${pointer}/${field}`),
      `${field} ${preview(booked)}, as create_media_buy answered (call ${call})`,
      `${preview(readBack)} (get_media_buys, call ${read.call})`,
      [call],
    );
  }
  return pass();
}

function byId(flow: Lifecycle, id: string, book: PayloadView, listsReads: boolean): Verdict {
  const read = flow.step(MB_STEP.readById);
  if (!read) {
    return listsReads
      ? untested('the read by id was not made (the flow stopped before it)')
      : notApplicable('the agent does not list get_media_buys: the buy cannot be read back');
  }
  const call = flow.book.call;
  const answer = answerOf(read.x, read.call);
  if (answer.kind === 'none') return answer.verdict;
  const want = `${preview(id)}, booked by create_media_buy (call ${call})`;
  if (answer.kind === 'bare-jsonrpc') return failAcross(at(read, '/error'), want, answer.found, [call]);
  if (answer.kind === 'adcp-error') {
    const found = `get_media_buys (call ${read.call}) refused it: ${preview(own(answer.error, 'code'))} ${preview(own(answer.error, 'message'))}`;
    return failAcross(at(read, answer.pointer), want, found, [call]);
  }
  const payload = payloadOrVerdict(read.x);
  if ('verdict' in payload) return payload.verdict;
  const item = buyIn(read.x, id);
  if (!item) {
    const buys = own(payload.data, 'media_buys');
    const listed = Array.isArray(buys)
      ? `it returned ${buys.length} other buy${buys.length === 1 ? '' : 's'}`
      : `no media_buys array: ${preview(buys)}`;
    return failAcross(
      at(read, `${payload.pointer}/media_buys`),
      want,
      `get_media_buys (call ${read.call}) did not return ${preview(id)} (${listed})`,
      [call],
    );
  }
  const buys = own(payload.data, 'media_buys') as unknown[];
  return sameBuy(book, read, item, `${payload.pointer}/media_buys/${buys.indexOf(item)}`, call);
}

function inList(flow: Lifecycle, id: string, listsReads: boolean): Verdict {
  const pages = flow.steps.filter((s) => isListStep(s.step));
  if (pages.length === 0) {
    return listsReads
      ? untested('the account list was not read (the flow stopped before it)')
      : notApplicable('the agent does not list get_media_buys: the buy cannot be read back');
  }
  if (pages.some((s) => buyIn(s.x, id))) return pass();
  const last = pages[pages.length - 1]!;
  const call = flow.book.call;
  const want = `${preview(id)}, booked by create_media_buy (call ${call}), among the account's live buys`;
  const answer = answerOf(last.x, last.call);
  if (answer.kind === 'none') return answer.verdict;
  if (answer.kind === 'bare-jsonrpc') return failAcross(at(last, '/error'), want, answer.found, [call]);
  if (answer.kind === 'adcp-error') {
    const found = `get_media_buys (call ${last.call}) refused the list: ${preview(own(answer.error, 'code'))} ${preview(own(answer.error, 'message'))}`;
    return failAcross(at(last, answer.pointer), want, found, [call]);
  }
  const payload = payloadOrVerdict(last.x);
  if ('verdict' in payload) return payload.verdict;
  if (pageInfo(successPayload(last.x)).hasMore === true)
    return untested(
      `${preview(id)} was not on the first ${pages.length} page(s) of the account's list, which goes on: the walk stops there`,
    );
  const calls = pages.map((s) => s.call).join(', ');
  return failAcross(
    at(last, `${payload.pointer}/media_buys`),
    want,
    `get_media_buys (call${pages.length > 1 ? 's' : ''} ${calls}) listed the account's buys without ${preview(id)}`,
    [call, ...pages.slice(0, -1).map((s) => s.call)],
  );
}

export default defineCheck({
  id: 'media-buy.read-after-write',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    'a new non-guaranteed buy is booked at once and get_media_buys returns it — by id and in the account list — with the id, revision, status and currency the booking answered',
  spec: {
    label:
      'AdCP · media-buy/specification ("get_media_buys MUST return every media buy owned by the authenticated account"); create_media_buy › When to return Submitted vs synchronous Success (3.1)',
    url: 'https://adcontextprotocol.org/docs/media-buy/specification',
  },
  fix: "commit the buy before answering create_media_buy, answer a non-guaranteed booking synchronously with its media_buy_id, and serve get_media_buys from the same store (by media_buy_ids, and in the list of the account's buys)",
  judge(a: AgentCapture, ctx: CheckContext): AgentVerdict[] {
    const flow = lifecycle(a, BOOK);
    if ('verdicts' in flow) return flow.verdicts;
    const booked = booking(flow, ctx);
    const found = bookedBuy(flow);
    if ('verdict' in found) {
      // No buy to read: the reads share the booking's verdict (its failure is reported once, on the booking).
      const reads = booked.status === 'fail' ? untested(`no buy to read back: the booking (call ${flow.book.call}) was deferred`) : booked;
      return [
        { subject: BOOK, verdict: booked },
        { subject: BY_ID, verdict: reads },
        { subject: LIST, verdict: reads },
      ];
    }
    const reads = listsTool(a, 'get_media_buys') || flow.steps.some((s) => s.x.tool === 'get_media_buys');
    return [
      { subject: BOOK, verdict: booked },
      { subject: BY_ID, verdict: byId(flow, found.id, found.payload, reads) },
      { subject: LIST, verdict: inList(flow, found.id, reads) },
    ];
  },
});
