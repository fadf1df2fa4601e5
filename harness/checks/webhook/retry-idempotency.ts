// webhook.retry-idempotency — the receiver answers the first delivery of each event with 503; the seller
// must retry it under the same event idempotency_key (a cryptographically random value, stable across
// retries), and one logical event (a task's status) carries one key however often it is sent: a replayed
// request emits no second event (webhooks.mdx, "Reliability"; core/mcp-webhook-payload.json idempotency_key).
import type { AgentCapture } from '../../record/exchange.ts';
import { defineCheck, failAcross, notApplicable, pass, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { asyncTasks, deliveryAt, deliveryPayload, receiverOrVerdicts, registrations, subjectOf, type Registration } from './_webhooks.ts';

/** core/mcp-webhook-payload.json idempotency_key (16–255 characters; a UUID v4 is the recommendation). */
const KEY = /^[A-Za-z0-9_.:-]{16,255}$/;

function judgeTask(r: Registration): Verdict {
  const events = new Map<string, Array<{ index: number; key: unknown; answered: number }>>();
  for (const { index, d } of r.deliveries) {
    const body = deliveryPayload(d);
    if (!('payload' in body)) continue; // an unreadable body is webhook.delivery's finding
    const key = own(body.payload, 'idempotency_key');
    if (typeof key !== 'string' || !KEY.test(key))
      return failAcross(
        deliveryAt(index, '/body/idempotency_key'),
        'an idempotency_key of 16–255 characters of A-Z a-z 0-9 _ . : - (random, e.g. a UUID v4)',
        preview(key),
        [r.call],
      );
    const event = String(own(body.payload, 'status'));
    events.set(event, [...(events.get(event) ?? []), { index, key, answered: d.answered }]);
  }
  if (events.size === 0) return notApplicable('no readable delivery for this task');
  const keysSeen = new Map<unknown, string>();
  for (const [status, sends] of events) {
    const first = sends[0]!;
    const other = sends.find((s) => s.key !== first.key);
    if (other)
      return failAcross(
        deliveryAt(other.index, '/body/idempotency_key'),
        `${preview(first.key)} again: every send of the ${status} event (a retry, or a replayed request) carries its one key`,
        `${preview(other.key)}: a second logical event`,
        [r.call],
      );
    const owner = keysSeen.get(first.key);
    if (owner !== undefined)
      return failAcross(
        deliveryAt(first.index, '/body/idempotency_key'),
        `a key of its own for the ${status} event`,
        `the key of the ${owner} event`,
        [r.call],
      );
    keysSeen.set(first.key, status);
    // The last send refused (5xx) and nothing after it: the event was dropped, not retried.
    const last = sends[sends.length - 1]!;
    if (last.answered >= 500)
      return failAcross(
        deliveryAt(last.index),
        `the ${status} event sent again after the receiver answered ${last.answered}`,
        'no retry within the wait',
        [r.call],
      );
  }
  return pass();
}

export default defineCheck({
  id: 'webhook.retry-idempotency',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    'a delivery the receiver refused (5xx) is retried with the same event `idempotency_key` (cryptographically random, stable across retries); a request replay emits no second logical event',
  spec: {
    label:
      'AdCP · Webhooks › Reliability ("Receivers MUST dedupe transport retries by idempotency_key"); core/mcp-webhook-payload.json · idempotency_key',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L3/webhooks',
  },
  fix: 'draw one random idempotency_key (UUID v4) per event when it happens, store it with the event, and resend that same payload on every retry after a 5xx or timeout (with backoff)',
  judge(a: AgentCapture): AgentVerdict[] {
    const found = receiverOrVerdicts(a, 'push_notification_config');
    if ('verdicts' in found) return found.verdicts;
    const tasks = asyncTasks(registrations(a, found.webhooks)).filter((r) => r.deliveries.length > 0);
    if (tasks.length === 0)
      return [{ subject: 'push_notification_config', verdict: notApplicable('no async task delivered a webhook (see webhook.delivery)') }];
    return tasks.map((r) => ({ subject: subjectOf(r), verdict: judgeTask(r) }));
  },
});
