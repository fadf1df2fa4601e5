// A seller whose task webhooks leave out the buyer's operation_id (webhooks.mdx: "Sellers MUST echo the
// buyer-supplied operation_id value in every webhook payload exactly as received").
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'webhook-operation-id-dropped',
  description: 'task webhook payloads omit push_notification_config.operation_id',
  trips: { 'webhook.delivery': 'fail' },
  behaviour: { webhook: { dropOperationId: true } },
});
