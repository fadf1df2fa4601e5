// A seller that mints a new idempotency_key for every delivery attempt: the retry after a 503 looks like
// a second event to the buyer (webhooks.mdx, Reliability: the key is stable across retries).
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'webhook-retry-new-key',
  description: "a task webhook retried after a 5xx carries a new idempotency_key instead of the event's own",
  trips: { 'webhook.retry-idempotency': 'fail' },
  behaviour: { webhook: { newKeyPerAttempt: true } },
});
