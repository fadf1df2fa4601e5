// The words every report uses about an agent's task lifecycle: the flow's calls (the booking's first
// answer, each poll, the terminal result, the replay) and the webhook deliveries with their signature
// verification. One definition, so the terminal, summary.md, report.html and JUnit agree with report.json.
// Strings are already sanitized; renderers escape for their format.
import type { AgentFacts, TaskTraceCall } from './model.ts';
import { deliveryText, type WebhookFacts } from '../webhooks/report-facts.ts';

export { deliveryText };

/** One call of the flow: `call 45 create_media_buy (book): submitted, task t_1`. */
export function traceCallText(c: TaskTraceCall): string {
  return `call ${c.call} ${c.tool} (${c.step}): ${c.status}${c.taskId !== undefined ? `, task ${c.taskId}` : ''}`;
}

/**
 * The calls whose answers are worth quoting where space is short: the booking's first answer, the last
 * poll (the terminal result, or where the budget left it), the replay.
 */
export function quotedCalls(calls: readonly TaskTraceCall[]): Set<TaskTraceCall> {
  const polls = calls.filter((c) => c.step.startsWith('poll-'));
  return new Set(calls.filter((c) => c.step === 'book' || c.step === 'replay' || c === polls[polls.length - 1]));
}

/** The receiver's line with the signatures counted: `4 webhook deliveries received at …; signatures: 4 verified`. */
export function webhookHeading(w: WebhookFacts): string {
  const judged = w.deliveries.filter((d) => d.call >= 0);
  if (!judged.length) return w.text;
  const verified = judged.filter((d) => d.verification?.ok === true).length;
  const rejected = judged.filter((d) => d.verification?.ok === false).length;
  const unverified = judged.length - verified - rejected;
  const counts = [
    verified ? `${verified} verified` : '',
    rejected ? `${rejected} rejected` : '',
    unverified ? `${unverified} not verified` : '',
  ].filter(Boolean);
  return `${w.text}; signatures: ${counts.join(', ')}${w.keys ? `; ${w.keys}` : ''}`;
}

/** Whether an agent has a task lifecycle or webhooks to report. */
export function hasTaskNotes(a: Pick<AgentFacts, 'taskTrace' | 'webhooks'>): boolean {
  return a.taskTrace !== undefined || a.webhooks !== undefined;
}
