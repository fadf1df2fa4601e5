// idempotency.replay — a create_media_buy repeated with the same idempotency_key and the same body (a
// buyer retrying after a lost answer) returns the original booking: the same media_buy_id, no second buy.
import type { AgentCapture } from '../../record/exchange.ts';
import { STEP, successPayload } from '../../capture/scenario-facts.ts';
import { defineCheck, fail, onCall, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { answerOf, at, type Step } from '../scenario-view.ts';
import { payloadOrVerdict } from '../views.ts';
import { idempotencyStep, SUBJECT } from './_scenario.ts';

function replayed(original: Step, replay: Step): Verdict {
  const answer = answerOf(replay.x, replay.call);
  if (answer.kind === 'none') return answer.verdict;
  const want = 'the original booking again (the same media_buy_id), from the replay cache';
  if (answer.kind === 'bare-jsonrpc') return fail(at(replay, '/error'), want, answer.found);
  if (answer.kind === 'adcp-error') {
    return fail(
      at(replay, answer.pointer),
      want,
      `an AdCP error ${preview(own(answer.error, 'code'))}: ${preview(own(answer.error, 'message'))}`,
    );
  }
  const first = own(successPayload(original.x), 'media_buy_id');
  if (typeof first !== 'string')
    return untested(
      `the original answer (call ${original.call}) has no media_buy_id to compare: see schema.adcp-response`,
      undefined,
      original.call,
    );
  const payload = payloadOrVerdict(replay.x);
  if ('verdict' in payload) return onCall(payload.verdict, replay.call);
  const again = own(payload.data, 'media_buy_id');
  if (again !== first)
    return fail(
      at(replay, `${payload.pointer}/media_buy_id`),
      `${preview(first)} (the original booking)`,
      `${preview(again)}: a second booking`,
    );
  return pass();
}

export default defineCheck({
  id: 'idempotency.replay',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    'a mutating request repeated with the same `idempotency_key` and body returns the same result (same media_buy_id) and books nothing twice',
  spec: {
    label:
      'AdCP · create_media_buy › idempotency_key ("the seller returns the existing media buy rather than creating a duplicate"); core/protocol-envelope.json · replayed',
    url: 'https://adcontextprotocol.org/schemas/3.1.19/media-buy/create-media-buy-request.json',
  },
  fix: 'cache the successful response by (account, idempotency_key) for the replay window and return it (with `"replayed": true`) when the same key comes back with the same body',
  judge(a: AgentCapture): AgentVerdict[] {
    const found = idempotencyStep(a, STEP.replay, 'replay');
    if ('verdicts' in found) return found.verdicts;
    return [{ subject: `${SUBJECT} (replay)`, verdict: replayed(found.original, found.step) }];
  },
});
