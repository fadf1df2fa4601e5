// A seller that sends its task webhooks unsigned (no Signature / Signature-Input) although the
// push_notification_config carried no `authentication`: RFC 9421 signing is the baseline (security.mdx).
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'webhook-unsigned',
  description: 'task webhooks are POSTed without an RFC 9421 signature (no Signature / Signature-Input headers)',
  trips: { 'webhook.signature': 'fail' },
  behaviour: { webhook: { unsigned: true } },
});
