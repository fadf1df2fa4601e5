// task.polling — following an async task with the polling tool and include_result gets somewhere: every
// poll answers the task's state, statuses only move forward (submitted → working / input-required →
// terminal), a terminal status comes within the harness's budget, and a completed task's `result` has the
// shape the original task answers synchronously (validated against that task's AdCP response schema).
import type { AgentCapture } from '../../record/exchange.ts';
import { PENDING_TASK_STATUSES, TERMINAL_TASK_STATUSES } from '../../capture/task-flow.ts';
import { defineCheck, failAcross, onCall, pass, untested, type AgentVerdict, type CheckContext, type Verdict } from '../check.ts';
import { isObject, own, preview } from '../../json.ts';
import { answerOf, at, type Step } from '../scenario-view.ts';
import { schemaVerdict } from '../schema/_failure.ts';
import { listedPollingTools, payloadOf, SUBJECT, TASK_LIFECYCLE_URL, taskFlow, taskIdIn, type TaskFlowView } from './_flow.ts';

/** Where a status stands in the lifecycle: a later one never comes before an earlier one. */
const rank = (status: string): number => (status === 'submitted' ? 0 : PENDING_TASK_STATUSES.includes(status) ? 1 : 2);

interface PollView {
  status: string;
  data: Record<string, unknown>;
  pointer: string;
}

/** One poll's task state, or the verdict it earns on its own. */
function judgePoll(poll: Step, taskId: string, related: number[]): { view: PollView } | { verdict: Verdict } {
  const want = `the state of task ${preview(taskId)}`;
  const answer = answerOf(poll.x, poll.call);
  if (answer.kind === 'none') return { verdict: onCall(answer.verdict, poll.call) };
  if (answer.kind === 'bare-jsonrpc') return { verdict: failAcross(at(poll, '/error'), want, answer.found, related) };
  if (answer.kind === 'adcp-error') {
    const found = `${poll.x.tool} refused it: ${preview(own(answer.error, 'code'))} ${preview(own(answer.error, 'message'))}`;
    return { verdict: failAcross(at(poll, answer.pointer), want, found, related) };
  }
  const payload = payloadOf(poll.x);
  if (!payload) return { verdict: untested(`poll ${poll.call} carries no AdCP payload: see envelope.extractable`, undefined, poll.call) };
  const status = own(payload.data, 'status');
  if (typeof status !== 'string' || !(PENDING_TASK_STATUSES.includes(status) || TERMINAL_TASK_STATUSES.includes(status)))
    return { verdict: failAcross(at(poll, `${payload.pointer}/status`), `${want}: a task status`, `status ${preview(status)}`, related) };
  const id = own(payload.data, 'task_id');
  if (id !== undefined && id !== taskId)
    return { verdict: failAcross(at(poll, `${payload.pointer}/task_id`), want, `task_id ${preview(id)}`, related) };
  return { view: { status, data: payload.data, pointer: payload.pointer } };
}

function judgePolling(flow: TaskFlowView, a: AgentCapture, ctx: CheckContext): Verdict {
  const { book, polls } = flow;
  const taskId = taskIdIn(flow.payload.data);
  if (taskId === undefined) return untested(`the ${flow.status} answer (call ${book.call}) has no task_id to poll: see task.submitted`);
  if (listedPollingTools(a).length === 0)
    return untested('the agent lists no polling tool (tasks/get, get_task_status): see task.submitted');
  if (polls.length === 0) return untested('no poll was made (the session ended first)');
  const related = [book.call];
  let last: PollView | undefined;
  let lastStep: Step | undefined;
  // The first answer's status is where the task starts: no poll may report an earlier one.
  let before = { status: flow.status, call: book.call };
  for (const poll of polls) {
    const seen = judgePoll(poll, taskId, related);
    if ('verdict' in seen) return seen.verdict;
    const { view } = seen;
    if (rank(view.status) < rank(before.status)) {
      return failAcross(
        at(poll, `${view.pointer}/status`),
        `a status at or after ${preview(before.status)} (call ${before.call})`,
        `status ${preview(view.status)}: the task moved backwards`,
        [...new Set([...related, before.call])],
      );
    }
    last = view;
    lastStep = poll;
    before = { status: view.status, call: poll.call };
  }
  const step = lastStep!;
  const final = last!;
  if (!TERMINAL_TASK_STATUSES.includes(final.status) && flow.completion && !flow.completion.accepted) {
    return untested(
      `the test controller did not complete the task (force_task_completion, call ${flow.completion.step.call}): nothing told it to finish`,
      undefined,
      flow.completion.step.call,
    );
  }
  if (!TERMINAL_TASK_STATUSES.includes(final.status)) {
    const elapsed = Date.parse(step.x.startedAt) - Date.parse(book.x.startedAt);
    const over = Number.isFinite(elapsed) ? ` over ${(elapsed / 1000).toFixed(1)} s` : '';
    return failAcross(
      at(step, `${final.pointer}/status`),
      'a terminal status (completed, failed, canceled, rejected) within the harness budget',
      `still ${preview(final.status)} after ${polls.length} poll${polls.length === 1 ? '' : 's'}${over}`,
      related,
    );
  }
  if (final.status !== 'completed') return pass();
  const result = own(final.data, 'result');
  if (!isObject(result)) {
    return failAcross(
      at(step, `${final.pointer}/result`),
      'the terminal result (include_result: true was sent, so a completed task MUST carry it)',
      result === undefined ? 'no result' : `result ${preview(result)}`,
      related,
    );
  }
  if (!ctx.schemas)
    return untested('no schema service: the terminal result could not be validated (supply the AdCP schemas with --schemas DIR|URL)');
  const validated = ctx.schemas.validateAdcpResponse(book.x.tool, result);
  if ('skip' in validated) return untested(`the terminal result could not be validated: ${validated.skip}`);
  const verdict = schemaVerdict(at(step, `${final.pointer}/result`), validated);
  return verdict.status === 'fail' ? { ...verdict, related } : verdict;
}

export default defineCheck({
  id: 'task.polling',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    "polling with include_result reaches a terminal status within the budget, statuses move forward only, and the terminal result validates against the original task's response schema",
  spec: {
    label:
      'AdCP · Task lifecycle › Polling and timeouts (include_result: "the same shape the original task would have returned"); Status progression',
    url: TASK_LIFECYCLE_URL,
  },
  fix: "move the task submitted → working → completed, and with include_result: true answer `result` shaped as the task's synchronous answer (create_media_buy: media_buy_id, packages, …)",
  judge(a: AgentCapture, ctx: CheckContext): AgentVerdict[] {
    const flow = taskFlow(a);
    if ('verdicts' in flow) return flow.verdicts;
    return [{ subject: SUBJECT, verdict: judgePolling(flow, a, ctx) }];
  },
});
