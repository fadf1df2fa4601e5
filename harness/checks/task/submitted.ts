// task.submitted — an async answer (submitted, working, input-required) is something a buyer can follow:
// it carries a task_id, no adcp_error, and the agent lists the AdCP polling tool (legacy `tasks/get`, or
// its alias `get_task_status`); when the test controller forced the submitted arm, the task_id is the forced
// one, verbatim (comply-test-controller.mdx: the seller MUST emit it verbatim). Judged on the task-lifecycle
// flow's booking.
import type { AgentCapture } from '../../record/exchange.ts';
import { defineCheck, fail, failAcross, pass, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { at } from '../scenario-view.ts';
import { listedPollingTools, SUBJECT, TASK_LIFECYCLE_URL, taskFlow, taskIdIn, type TaskFlowView } from './_flow.ts';

function judgeSubmitted(flow: TaskFlowView, a: AgentCapture): Verdict {
  const { book, payload, status } = flow;
  const id = own(payload.data, 'task_id');
  if (taskIdIn(payload.data) === undefined) {
    return fail(
      at(book, `${payload.pointer}/task_id`),
      `a task_id (a non-empty string) on the ${status} answer: the handle tasks/get takes`,
      id === undefined ? 'no task_id' : `task_id ${preview(id)}`,
    );
  }
  if (flow.forced && id !== flow.forced.taskId) {
    return failAcross(
      at(book, `${payload.pointer}/task_id`),
      `the task_id force_create_media_buy_arm registered (call ${flow.forced.step.call}), verbatim: ${preview(flow.forced.taskId)}`,
      `task_id ${preview(id)}`,
      [flow.forced.step.call],
    );
  }
  if (own(payload.data, 'adcp_error') !== undefined) {
    return fail(
      at(book, `${payload.pointer}/adcp_error`),
      `a ${status} answer without adcp_error`,
      `adcp_error ${preview(own(payload.data, 'adcp_error'))}`,
    );
  }
  if (listedPollingTools(a).length === 0) {
    return fail(
      '/tools',
      'the AdCP polling tool listed: tasks/get (or its alias get_task_status)',
      'the agent lists neither tasks/get nor get_task_status',
    );
  }
  return pass();
}

export default defineCheck({
  id: 'task.submitted',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    'a submitted / working / input-required answer carries a task_id (the forced one, verbatim, under a test-controller directive), no adcp_error, and the agent lists the polling tool (tasks/get or get_task_status)',
  spec: {
    label:
      'AdCP · Task lifecycle › Operations over 30 seconds (submitted: task_id; poll with tasks/get or get_task_status); Required tasks (tasks/get); Compliance test controller › force_create_media_buy_arm (the forced task_id verbatim)',
    url: TASK_LIFECYCLE_URL,
  },
  fix: 'answer an async booking with `{"status":"submitted","task_id":"task_…"}` (under a forced submitted arm, the task_id the controller registered) and serve `tasks/get` (and optionally `get_task_status`) for that task_id',
  judge(a: AgentCapture): AgentVerdict[] {
    const flow = taskFlow(a);
    if ('verdicts' in flow) {
      const ignored = flow.ignored;
      if (!ignored) return flow.verdicts;
      const verdict = failAcross(
        at(ignored.book, `${ignored.payload.pointer}/status`),
        `the submitted arm force_create_media_buy_arm registered (call ${ignored.forced.step.call}), with task_id ${preview(ignored.forced.taskId)}`,
        `status ${preview(ignored.status)}: the booking was answered at once`,
        [ignored.forced.step.call],
      );
      return [{ subject: SUBJECT, verdict }];
    }
    return [{ subject: SUBJECT, verdict: judgeSubmitted(flow, a) }];
  },
});
