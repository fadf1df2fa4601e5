// webhook.no-inline-duplicate — a call whose answer was already terminal (completed inline, or refused)
// gets no task webhook, even though it carried a push_notification_config: the buyer has the result, and
// a seller replaying it to the URL is inventing a task (webhooks.mdx, "Only operations whose initial
// response is non-terminal … may later emit AdCP task webhooks").
import type { AgentCapture } from '../../record/exchange.ts';
import { defineCheck, failAcross, notApplicable, pass, type AgentVerdict } from '../check.ts';
import { deliveryAt, deliveryPayload, receiverOrVerdicts, registrations, subjectOf } from './_webhooks.ts';
import { own, preview } from '../../json.ts';

export default defineCheck({
  id: 'webhook.no-inline-duplicate',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title: 'a call that completed inline (its terminal result in the answer) gets no task webhook, even with `push_notification_config`',
  spec: {
    label: 'AdCP · Webhooks › "sellers MUST NOT synthesize a task webhook … or replay the inline result to push_notification_config.url"',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L3/webhooks',
  },
  fix: 'send task webhooks only for operations whose first answer was submitted / working / input-required; a call answered completed (or with an error) sends nothing to push_notification_config.url',
  judge(a: AgentCapture): AgentVerdict[] {
    const found = receiverOrVerdicts(a, 'push_notification_config');
    if ('verdicts' in found) return found.verdicts;
    const inline = registrations(a, found.webhooks).filter((r) => r.answer.kind === 'inline');
    if (inline.length === 0)
      return [
        { subject: 'push_notification_config', verdict: notApplicable('no call with a push_notification_config was answered inline') },
      ];
    return inline.map((r) => {
      const first = r.deliveries[0];
      if (!first) return { subject: subjectOf(r), verdict: pass() };
      const body = deliveryPayload(first.d);
      const status = 'payload' in body ? ` with status ${preview(own(body.payload, 'status'))}` : '';
      return {
        subject: subjectOf(r),
        verdict: failAcross(
          deliveryAt(first.index),
          `no webhook: the call's answer was already terminal (${r.answer.kind === 'inline' ? r.answer.status : ''})`,
          `${r.deliveries.length} POST(s) to its push_notification_config.url${status}`,
          [r.call],
        ),
      };
    });
  },
});
