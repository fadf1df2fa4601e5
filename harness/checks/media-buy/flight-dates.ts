// media-buy.flight-dates — a booking whose flight cannot be run is refused: from AdCP 3.1 a concrete
// `start_time` in the past gets INVALID_REQUEST (3.0 sets no rule: its storyboard lets a seller accept
// it and move the start); a flight that ends before it starts gets an AdCP error at every release (the
// 3.0 and 3.1 storyboards both require the refusal). A wrongly accepted booking is canceled by the flow.
import type { AgentCapture } from '../../record/exchange.ts';
import { MB_STEP } from '../../capture/media-buy-flow.ts';
import { defineCheck, failAcross, notApplicable, pass, untested, type AgentVerdict, type CheckContext, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { answerOf, at } from '../scenario-view.ts';
import { payloadOrVerdict } from '../views.ts';
import { bookedBuy, lifecycle, refusedWith, servedAt31, type Lifecycle } from './_flow.ts';

const PAST = 'create_media_buy (start_time in the past)';
const INVERTED = 'create_media_buy (end_time before start_time)';

const flight = (args: Record<string, unknown>): string =>
  `start_time ${preview(own(args, 'start_time'))}, end_time ${preview(own(args, 'end_time'))}`;

function pastStart(flow: Lifecycle, ctx: CheckContext): Verdict {
  const s = flow.step(MB_STEP.pastStart);
  if (!s) return untested('the booking with a past start was not made (the flow stopped before it)');
  if (!servedAt31(s, ctx))
    return notApplicable(
      'AdCP 3.0 sets no rule for a past start_time (a seller may accept it and move the start); INVALID_REQUEST is required from 3.1',
    );
  return refusedWith(s, 'INVALID_REQUEST', `INVALID_REQUEST: a concrete start_time in the past (${flight(s.x.request.arguments)})`, [
    flow.book.call,
  ]);
}

function inverted(flow: Lifecycle): Verdict {
  const s = flow.step(MB_STEP.endBeforeStart);
  if (!s) return untested('the booking ending before it starts was not made (the flow stopped before it)');
  const want = `an AdCP error (e.g. INVALID_REQUEST): the flight ends before it starts (${flight(s.x.request.arguments)})`;
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'adcp-error':
      return pass();
    case 'bare-jsonrpc':
      return failAcross(at(s, '/error'), want, answer.found, [flow.book.call]);
    case 'success': {
      const payload = payloadOrVerdict(s.x);
      const pointer = 'verdict' in payload ? '/result/isError' : `${payload.pointer}/media_buy_id`;
      const id = 'verdict' in payload ? undefined : own(payload.data, 'media_buy_id');
      return failAcross(at(s, pointer), want, `a success: booked${id === undefined ? '' : ` as ${preview(id)}`}`, [flow.book.call]);
    }
  }
}

export default defineCheck({
  id: 'media-buy.flight-dates',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  condition:
    'a past start_time refused with INVALID_REQUEST from AdCP 3.1 (3.0 may accept and adjust it); an end before the start refused at every release',
  title:
    'a booking with a concrete `start_time` in the past gets INVALID_REQUEST (AdCP 3.1); one whose `end_time` precedes its `start_time` gets an AdCP error',
  spec: {
    label:
      'AdCP · create_media_buy › Flight date validation ("A past concrete start_time MUST return an INVALID_REQUEST error"); storyboard universal/schema-validation › reversed_dates',
    url: 'https://adcontextprotocol.org/docs/media-buy/task-reference/create_media_buy',
  },
  fix: 'validate the flight before booking: `start_time` is "asap" or not in the past (allow a few seconds of clock skew), `end_time` after `start_time`; refuse otherwise with `{"adcp_error":{"code":"INVALID_REQUEST","field":"start_time","recovery":"correctable",…}}`',
  judge(a: AgentCapture, ctx: CheckContext): AgentVerdict[] {
    const flow = lifecycle(a, PAST);
    if ('verdicts' in flow) return flow.verdicts;
    const found = bookedBuy(flow);
    // Without a booking that worked, a refusal could be about anything but the dates.
    if ('verdict' in found) return [{ subject: PAST, verdict: found.verdict }];
    return [
      { subject: PAST, verdict: pastStart(flow, ctx) },
      { subject: INVERTED, verdict: inverted(flow) },
    ];
  },
});
