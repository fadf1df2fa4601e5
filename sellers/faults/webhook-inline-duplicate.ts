// A seller that also "notifies" a booking it completed inline: the synchronous create_media_buy answer is
// replayed to the push_notification_config.url as a completed task webhook under an invented task_id
// (webhooks.mdx: sellers MUST NOT synthesize a task webhook for an inline terminal response).
import { randomUUID } from 'node:crypto';
import { defineFault } from './_fault.ts';
import { isPlainObject, type JsonObject } from '../reference/json.ts';
import { pushConfigOf, WebhookSender, type PushConfig } from '../reference/webhooks.ts';

// The registration of the create_media_buy being answered (request → payload within one call).
let registered: { push: PushConfig; context?: JsonObject } | undefined;
const sender = new WebhookSender();

export default defineFault({
  name: 'webhook-inline-duplicate',
  description: 'a create_media_buy answered completed inline is also POSTed to its push_notification_config.url as a task webhook',
  trips: { 'webhook.no-inline-duplicate': 'fail' },
  behaviour: {
    request: (tool, args) => {
      if (tool !== 'create_media_buy') return;
      const push = pushConfigOf(args);
      const context = args['context'];
      registered = push ? { push, ...(isPlainObject(context) ? { context } : {}) } : undefined;
    },
    payload: (tool, payload) => {
      if (tool !== 'create_media_buy' || !registered || payload['status'] !== 'completed') return;
      const { push, context } = registered;
      registered = undefined;
      void sender.deliver(push, {
        task_id: `task_inline_${randomUUID()}`,
        task_type: 'create_media_buy',
        status: 'completed',
        ...(context ? { context } : {}),
        result: { ...payload },
      });
    },
  },
});
