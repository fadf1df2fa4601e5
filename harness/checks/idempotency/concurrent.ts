// idempotency.concurrent — two identical create_media_buy requests under one fresh key, sent at once
// (the second before the first was answered), book once: the other answer is the same booking (the
// seller waited and replayed) or IDEMPOTENCY_IN_FLIGHT with `retry_after`. Two different media_buy_ids
// are a double booking; the finding carries both requests and both answers.
import type { AgentCapture } from '../../record/exchange.ts';
import { STEP } from '../../capture/scenario-facts.ts';
import { defineCheck, failAcross, onCall, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview, type JsonObject } from '../../json.ts';
import { answerOf, at, codeOf, recoveryOf, type Answer, type Step } from '../scenario-view.ts';
import { payloadOrVerdict } from '../views.ts';
import { idempotencySteps, SUBJECT } from './_scenario.ts';

const ONCE = 'one booking: the other request answered as a replay of it (same media_buy_id) or IDEMPOTENCY_IN_FLIGHT with retry_after';

/** The judged answer of a refused one of the pair, when the other booked. */
function refusedWhileBooked(booked: Step, refused: Step, error: JsonObject, pointer: string): Verdict {
  const code = codeOf(error, refused.call);
  if ('verdict' in code) return code.verdict;
  if (code.code === 'IDEMPOTENCY_IN_FLIGHT') {
    const wait = own(error, 'retry_after');
    if (typeof wait === 'number' && Number.isFinite(wait) && wait >= 0) return pass();
    return failAcross(
      at(refused, `${pointer}/retry_after`),
      'retry_after (seconds): IDEMPOTENCY_IN_FLIGHT tells the buyer when to retry with the same key',
      wait === undefined ? 'absent' : preview(wait),
      [booked.call],
    );
  }
  const recovery = recoveryOf(error, refused.call);
  if (!('verdict' in recovery) && recovery.recovery === 'transient' && code.code !== 'IDEMPOTENCY_CONFLICT')
    return untested(`call ${refused.call} of the pair got a transient error ${preview(code.code)}: nothing to judge`);
  return failAcross(
    at(refused, `${pointer}/code`),
    ONCE,
    `${preview(code.code)}: ${preview(own(error, 'message'))} (the identical request at call ${booked.call} booked)`,
    [booked.call],
  );
}

function bookedOnce(a: Step, b: Step): Verdict {
  const answers: Array<[Step, Answer]> = [
    [a, answerOf(a.x, a.call)],
    [b, answerOf(b.x, b.call)],
  ];
  for (const [, answer] of answers) if (answer.kind === 'none') return answer.verdict;
  const ok = answers.filter(([, r]) => r.kind === 'success').map(([s]) => s);
  if (ok.length === 2) {
    const ids: Array<{ id: unknown; pointer: string }> = [];
    for (const s of ok) {
      const p = payloadOrVerdict(s.x);
      if ('verdict' in p) return onCall(p.verdict, s.call);
      ids.push({ id: own(p.data, 'media_buy_id'), pointer: p.pointer });
    }
    const [first, second] = ids;
    if (typeof first!.id !== 'string' || typeof second!.id !== 'string')
      return untested('an answer of the pair has no media_buy_id to compare: see schema.adcp-response');
    if (first!.id === second!.id) return pass();
    return failAcross(
      at(b, `${second!.pointer}/media_buy_id`),
      `${preview(first!.id)} (booked by call ${a.call}): ${ONCE}`,
      `${preview(second!.id)}: a second booking of the same request under the same key`,
      [a.call],
    );
  }
  if (ok.length === 1) {
    const booked = ok[0]!;
    const [refused, answer] = answers.find(([s]) => s !== booked)!;
    if (answer.kind === 'bare-jsonrpc') return failAcross(at(refused, '/error'), ONCE, answer.found, [booked.call]);
    if (answer.kind === 'adcp-error') return refusedWhileBooked(booked, refused, answer.error, answer.pointer);
  }
  // Neither booked. Both told to wait means nobody executed the key's first request.
  const inFlight = answers.filter(([, r]) => r.kind === 'adcp-error' && own(r.error, 'code') === 'IDEMPOTENCY_IN_FLIGHT');
  if (inFlight.length === 2)
    return failAcross(at(b, '/result'), ONCE, `IDEMPOTENCY_IN_FLIGHT on both (calls ${a.call} and ${b.call}): neither executed`, [a.call]);
  return untested(`neither request of the pair (calls ${a.call}, ${b.call}) booked: see their outcomes`);
}

export default defineCheck({
  id: 'idempotency.concurrent',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    'two identical requests sent at once with one `idempotency_key` book once: the other is a replay or IDEMPOTENCY_IN_FLIGHT with retry_after',
  spec: {
    label:
      'AdCP security · Idempotency, rule 9 ("Concurrent retries — first-insert-wins … MUST NOT execute the side effect twice"; wait-and-replay or IDEMPOTENCY_IN_FLIGHT with error.retry_after)',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L1/security',
  },
  fix: 'claim the key (with the request hash) before executing, e.g. INSERT … ON CONFLICT DO NOTHING; a second request finding the claim waits and replays the answer, or gets `{"adcp_error":{"code":"IDEMPOTENCY_IN_FLIGHT","message":"…","recovery":"transient","retry_after":2}}`',
  judge(a: AgentCapture): AgentVerdict[] {
    const found = idempotencySteps(a, [STEP.concurrentFirst, STEP.concurrentSecond], 'race against');
    if ('verdicts' in found) return found.verdicts;
    const [first, second] = found.steps as [Step, Step];
    return [{ subject: `${SUBJECT} (two identical requests at once)`, verdict: bookedOnce(first, second) }];
  },
});
