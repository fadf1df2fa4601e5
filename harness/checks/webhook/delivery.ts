// webhook.delivery — an async task (first answer submitted / working / input-required with a task_id)
// reports its status changes to push_notification_config.url: at least its terminal status arrives
// within the run's wait, and every payload is a webhook payload (core/mcp-webhook-payload.json: its
// required fields, a status of the task-status enum, the task's own task_id) that echoes the buyer's
// operation_id and context exactly (webhooks.mdx, "Operation IDs" and "Echoing the caller's context").
import type { AgentCapture } from '../../record/exchange.ts';
import {
  defineCheck,
  failAcross,
  notApplicable,
  pass,
  untested,
  type AgentVerdict,
  type CheckContext,
  type SchemaService,
  type Verdict,
} from '../check.ts';
import { jsonEqual, own, preview } from '../../json.ts';
import {
  asyncTasks,
  deliveryAt,
  deliveryPayload,
  receiverNote,
  receiverOrVerdicts,
  registrations,
  subjectOf,
  TERMINAL,
  type Registration,
} from './_webhooks.ts';

const REQUIRED = ['idempotency_key', 'operation_id', 'task_id', 'task_type', 'status', 'timestamp'] as const;
const STATUSES = new Set([
  'submitted',
  'working',
  'input-required',
  'completed',
  'canceled',
  'failed',
  'rejected',
  'auth-required',
  'unknown',
]);

function judgeTask(r: Registration, waitedMs: number, note: string, schemas: SchemaService | undefined): Verdict {
  if (r.answer.kind !== 'async') return notApplicable('answered inline');
  const taskId = r.answer.taskId;
  for (const { index, d } of r.deliveries) {
    const body = deliveryPayload(d);
    if ('problem' in body)
      return failAcross(deliveryAt(index, '/body'), 'a JSON webhook payload (core/mcp-webhook-payload.json)', body.problem, [r.call]);
    const p = body.payload;
    // The release's schema where the service has it; else its required fields and status enum by hand.
    const checked = schemas?.validateWebhookPayload?.(p);
    if (checked && 'errors' in checked) {
      if (checked.errors.length > 0) {
        const first = checked.errors[0]!;
        return {
          status: 'fail',
          pointer: deliveryAt(index, `/body${first.pointer}`),
          expected: 'a payload valid against core/mcp-webhook-payload.json',
          found: `${first.pointer || '/'}: ${first.expected} (found ${first.found})`,
          schemaErrors: checked.errors,
          ...(checked.omitted ? { schemaErrorsOmitted: checked.omitted } : {}),
          related: [r.call],
        };
      }
    } else {
      const missing = REQUIRED.filter((k) => own(p, k) === undefined);
      if (missing.length)
        return failAcross(deliveryAt(index, '/body'), `a webhook payload with ${REQUIRED.join(', ')}`, `${missing.join(', ')} missing`, [
          r.call,
        ]);
      if (typeof own(p, 'status') !== 'string' || !STATUSES.has(own(p, 'status') as string))
        return failAcross(deliveryAt(index, '/body/status'), 'a task status (enums/task-status.json)', preview(own(p, 'status')), [r.call]);
    }
    if (own(p, 'task_id') !== taskId)
      return failAcross(
        deliveryAt(index, '/body/task_id'),
        `${preview(taskId)} (the task_id the call answered)`,
        preview(own(p, 'task_id')),
        [r.call],
      );
    const operationId = own(r.push, 'operation_id');
    if (operationId !== undefined && own(p, 'operation_id') !== operationId)
      return failAcross(
        deliveryAt(index, '/body/operation_id'),
        `${preview(operationId)} (push_notification_config.operation_id, echoed exactly)`,
        preview(own(p, 'operation_id')),
        [r.call],
      );
    if (r.context !== undefined && !jsonEqual(own(p, 'context'), r.context))
      return failAcross(
        deliveryAt(index, '/body/context'),
        `${preview(r.context)} (the request's context, echoed exactly)`,
        preview(own(p, 'context')),
        [r.call],
      );
  }
  const terminal = r.deliveries.some(({ d }) => {
    const body = deliveryPayload(d);
    return 'payload' in body && TERMINAL.has(own(body.payload, 'status') as string);
  });
  if (!terminal) {
    if (r.deliveries.length === 0 && note) return untested(`no delivery arrived${note}`);
    return failAcross(
      `/exchanges/${r.call}`,
      `the task's status changes POSTed to ${preview(own(r.push, 'url'))}, its terminal status included`,
      r.deliveries.length
        ? `${r.deliveries.length} delivery(ies), none terminal, after waiting ${waitedMs} ms`
        : `no delivery after waiting ${waitedMs} ms`,
      [],
    );
  }
  return pass();
}

export default defineCheck({
  id: 'webhook.delivery',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    'an async task delivers its status changes to the `push_notification_config.url`, each payload valid against the webhook payload schema, echoing `operation_id` and `context` exactly',
  spec: {
    label: "AdCP · Webhooks › Operation IDs; Echoing the caller's context; core/mcp-webhook-payload.json",
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L3/webhooks',
  },
  fix: "POST each status change of a submitted task to push_notification_config.url as an mcp-webhook-payload (idempotency_key, operation_id, task_id, task_type, status, timestamp), echoing operation_id and the request's context verbatim",
  judge(a: AgentCapture, ctx: CheckContext): AgentVerdict[] {
    const found = receiverOrVerdicts(a, 'push_notification_config');
    if ('verdicts' in found) return found.verdicts;
    const pending = asyncTasks(registrations(a, found.webhooks));
    if (pending.length === 0)
      return [{ subject: 'push_notification_config', verdict: notApplicable('no call with a push_notification_config went async') }];
    const note = receiverNote(found.webhooks);
    return pending.map((r) => ({ subject: subjectOf(r), verdict: judgeTask(r, found.webhooks.waitedMs, note, ctx.schemas) }));
  },
});
