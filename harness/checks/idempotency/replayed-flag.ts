// idempotency.replayed-flag — a replay (same key, same body) answers with the payload the original
// booking cached, marked `replayed: true`: a buyer tells a cached answer from a new booking by that flag
// alone (billing, notifications, state-machine routing). Fields of the protocol envelope (status,
// context, timestamp, …) describe the current response and may differ; everything else must not.
import type { AgentCapture } from '../../record/exchange.ts';
import { STEP, successPayload } from '../../capture/scenario-facts.ts';
import { defineCheck, fail, onCall, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { isObject, own, preview, safeStringify, type JsonObject } from '../../json.ts';
import { answerOf, at, type Step } from '../scenario-view.ts';
import { payloadOrVerdict } from '../views.ts';
import { idempotencyStep, SUBJECT } from './_scenario.ts';

/**
 * Fields of the protocol envelope (core/protocol-envelope.json) and the version echo: they describe this
 * response, not the cached payload (security.mdx: "Envelope fields … may differ").
 */
const ENVELOPE = new Set([
  'status',
  'context_id',
  'context',
  'task_id',
  'message',
  'timestamp',
  'replayed',
  'adcp_error',
  'push_notification_config',
  'governance_context',
  'adcp_version',
  'adcp_major_version',
]);

/** The first top-level payload field whose value differs between the two answers (envelope fields aside). */
function firstDifference(first: JsonObject, again: JsonObject): string | undefined {
  const keys = new Set([...Object.keys(first), ...Object.keys(again)].filter((k) => !ENVELOPE.has(k)));
  for (const k of keys) if (safeStringify(own(first, k)) !== safeStringify(own(again, k))) return k;
  return undefined;
}

function flagged(original: Step, replay: Step): Verdict {
  const answer = answerOf(replay.x, replay.call);
  if (answer.kind === 'none') return answer.verdict;
  if (answer.kind !== 'success')
    return untested(
      `the replay (call ${replay.call}) was refused, so it carries no cached payload: see idempotency.replay`,
      undefined,
      replay.call,
    );
  const first = successPayload(original.x);
  const payload = payloadOrVerdict(replay.x);
  if ('verdict' in payload) return onCall(payload.verdict, replay.call);
  const id = own(first, 'media_buy_id');
  if (typeof id !== 'string' || own(payload.data, 'media_buy_id') !== id)
    return untested(`the replay (call ${replay.call}) did not return the original booking: see idempotency.replay`, undefined, replay.call);
  const flag = own(payload.data, 'replayed');
  if (flag !== true)
    return fail(
      at(replay, `${payload.pointer}/replayed`),
      'true (the answer came from the idempotency cache, not a new execution)',
      flag === undefined ? 'absent (read as false: a new booking)' : preview(flag),
    );
  const differs = isObject(first) ? firstDifference(first, payload.data) : undefined;
  if (differs !== undefined)
    return fail(
      at(replay, `${payload.pointer}/${differs}`),
      `${preview(own(first, differs))}, as in the original answer (call ${original.call}): a replay returns the cached payload unchanged`,
      preview(own(payload.data, differs)),
    );
  return pass();
}

export default defineCheck({
  id: 'idempotency.replayed-flag',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title: 'a replay returns the originally cached payload, marked `replayed: true`',
  spec: {
    label:
      'AdCP security · Idempotency, rules 2 and 4 ("replays within the TTL MUST return the originally-cached payload (with replayed: true)"); core/protocol-envelope.json · replayed',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L1/security',
  },
  fix: 'answer a replay with the stored payload byte for byte and add `"replayed": true` at the top of the structured result (envelope fields such as `context` may be the new call\'s)',
  judge(a: AgentCapture): AgentVerdict[] {
    const found = idempotencyStep(a, STEP.replay, 'replay');
    if ('verdicts' in found) return found.verdicts;
    return [{ subject: `${SUBJECT} (replayed flag)`, verdict: flagged(found.original, found.step) }];
  },
});
