// Shared by the webhook.* checks: the calls that registered a push_notification_config, how each was
// answered (inline terminal, or async with a task_id), and the deliveries the harness's receiver got for
// each (WebhookCapture: the receiver pins a delivery to its call by the per-call URL path).
import type { AgentCapture, Exchange, WebhookCapture, WebhookDelivery } from '../../record/exchange.ts';
import { successPayload } from '../../capture/scenario-facts.ts';
import { isObject, own, type JsonObject } from '../../json.ts';
import { notApplicable, type AgentVerdict, type Verdict } from '../check.ts';

/** Statuses after which a task changes no more (enums/task-status.json). */
export const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);
/** Statuses of a task that goes on after the answer (task-lifecycle.mdx). */
export const PENDING = new Set(['submitted', 'working', 'input-required']);

export interface Registration {
  /** Index of the call in `exchanges`. */
  call: number;
  x: Exchange;
  push: JsonObject;
  /** The request's top-level context, when it sent one. */
  context?: unknown;
  /** `inline`: the answer was terminal (or an error); `async`: pending with a task_id; `none`: no usable answer. */
  answer: { kind: 'inline'; status: string } | { kind: 'async'; status: string; taskId: string } | { kind: 'none' };
  deliveries: Array<{ index: number; d: WebhookDelivery }>;
}

function answerOf(x: Exchange): Registration['answer'] {
  if (x.outcome.kind !== 'result') return x.outcome.kind === 'jsonrpc-error' ? { kind: 'inline', status: 'error' } : { kind: 'none' };
  const payload = successPayload(x);
  if (!payload) return { kind: 'inline', status: 'error' };
  const status = own(payload, 'status');
  const taskId = own(payload, 'task_id');
  if (typeof status === 'string' && PENDING.has(status)) {
    // A pending answer without a task_id is malformed (task.submitted's finding), never an inline result.
    return typeof taskId === 'string' ? { kind: 'async', status, taskId } : { kind: 'none' };
  }
  return { kind: 'inline', status: typeof status === 'string' ? status : 'completed' };
}

/** Every call that carried a push_notification_config, with its deliveries (arrival order). */
export function registrations(a: AgentCapture, webhooks: WebhookCapture): Registration[] {
  const out: Registration[] = [];
  a.exchanges.forEach((x, call) => {
    const push = own(x.request.arguments, 'push_notification_config');
    if (!isObject(push)) return;
    const context = own(x.request.arguments, 'context');
    out.push({
      call,
      x,
      push,
      ...(context !== undefined ? { context } : {}),
      answer: answerOf(x),
      // The URL's call: a replay carries the original's push_notification_config (the receiver pins by path).
      deliveries: webhooks.deliveries.map((d, index) => ({ index, d })).filter(({ d }) => d.call === urlCall(push, call)),
    });
  });
  return out;
}

/** The call index the receiver's per-call URL names (its last path segment), else the registering call. */
function urlCall(push: JsonObject, call: number): number {
  const url = own(push, 'url');
  const last = typeof url === 'string' ? /\/(\d+)$/.exec(url)?.[1] : undefined;
  return last === undefined ? call : Number(last);
}

/**
 * The async registrations, one per task: a replay answered with the same task_id (and so the same
 * push_notification_config) joins the first call's, its deliveries merged in arrival order.
 */
export function asyncTasks(regs: readonly Registration[]): Registration[] {
  const byTask = new Map<string, Registration>();
  for (const r of regs) {
    if (r.answer.kind !== 'async') continue;
    const first = byTask.get(r.answer.taskId);
    if (!first) byTask.set(r.answer.taskId, { ...r, deliveries: [...r.deliveries] });
    else if (urlCall(r.push, r.call) !== urlCall(first.push, first.call))
      first.deliveries = [...first.deliveries, ...r.deliveries].sort((x, y) => x.index - y.index);
  }
  // A seller that opened a second task on a replay posts both tasks to the one URL: each task keeps the
  // deliveries that name it (and those that name none). A URL of one task keeps all of its deliveries.
  const tasksOfUrl = new Map<number, number>();
  for (const t of byTask.values()) tasksOfUrl.set(urlCall(t.push, t.call), (tasksOfUrl.get(urlCall(t.push, t.call)) ?? 0) + 1);
  for (const [taskId, t] of byTask) {
    if ((tasksOfUrl.get(urlCall(t.push, t.call)) ?? 0) < 2) continue;
    t.deliveries = t.deliveries.filter(({ d }) => {
      const read = deliveryPayload(d);
      const named = 'payload' in read ? own(read.payload, 'task_id') : undefined;
      return typeof named !== 'string' || named === taskId;
    });
  }
  return [...byTask.values()];
}

/** The receiver's capture, or the verdicts that stand in when no receiver ran. */
export function receiverOrVerdicts(a: AgentCapture, subject: string): { webhooks: WebhookCapture } | { verdicts: AgentVerdict[] } {
  if (!a.webhooks) return { verdicts: [{ subject, verdict: notApplicable('no webhook receiver ran for this agent') }] };
  return { webhooks: a.webhooks };
}

/** A delivery's body as JSON, or why it cannot be read. */
export function deliveryPayload(d: WebhookDelivery): { payload: JsonObject } | { problem: string } {
  if (d.cut) return { problem: `the body was cut (${d.cut}) after ${d.bodyBytes} bytes` };
  if (d.bodyEncoding !== 'utf8') return { problem: 'the body is not UTF-8' };
  try {
    const parsed: unknown = JSON.parse(d.body);
    return isObject(parsed) ? { payload: parsed } : { problem: 'the body is not a JSON object' };
  } catch {
    return { problem: 'the body is not JSON' };
  }
}

/** Pointer to a delivery in the capture (its body, or a field of it). */
export const deliveryAt = (index: number, rest = ''): string => `/webhooks/deliveries/${index}${rest}`;

/** Subject of a call's verdict: its tool and call number. */
export const subjectOf = (r: Registration): string => `${r.x.tool} (call ${r.call})`;

/** Why nothing was seen, when the receiver knows. */
export const receiverNote = (w: WebhookCapture): string => (w.note ? ` (${w.note})` : '');

export type { Verdict };
