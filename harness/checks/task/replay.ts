// task.replay — an async booking replayed under its idempotency_key (a buyer retrying after a lost answer)
// gets the original submitted answer back: the same status and task_id, not the task's current state (a
// completed buy) nor a second task. security.mdx: a replay returns the cached response.
import type { AgentCapture } from '../../record/exchange.ts';
import { defineCheck, failAcross, onCall, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { answerOf, at } from '../scenario-view.ts';
import { payloadOf, SUBJECT, taskFlow, taskIdIn, type TaskFlowView } from './_flow.ts';

function judgeReplay(flow: TaskFlowView): Verdict {
  const { book, replay, status } = flow;
  const first = taskIdIn(flow.payload.data);
  if (first === undefined)
    return untested(`the original ${status} answer (call ${book.call}) has no task_id to compare: see task.submitted`);
  if (!replay) return untested('the replay was not made (the session ended first)');
  const want = `the original answer again: status ${preview(status)} with task_id ${preview(first)} (call ${book.call})`;
  const answer = answerOf(replay.x, replay.call);
  if (answer.kind === 'none') return onCall(answer.verdict, replay.call);
  if (answer.kind === 'bare-jsonrpc') return failAcross(at(replay, '/error'), want, answer.found, [book.call]);
  if (answer.kind === 'adcp-error') {
    const found = `an AdCP error ${preview(own(answer.error, 'code'))}: ${preview(own(answer.error, 'message'))}`;
    return failAcross(at(replay, answer.pointer), want, found, [book.call]);
  }
  const payload = payloadOf(replay.x);
  if (!payload)
    return untested(`the replay (call ${replay.call}) carries no AdCP payload: see envelope.extractable`, undefined, replay.call);
  const again = own(payload.data, 'task_id');
  const againStatus = own(payload.data, 'status');
  if (againStatus !== status) {
    const buy = own(payload.data, 'media_buy_id');
    const current = buy !== undefined ? ` with media_buy_id ${preview(buy)}: the task's current state, not the cached answer` : '';
    return failAcross(at(replay, `${payload.pointer}/status`), want, `status ${preview(againStatus)}${current}`, [book.call]);
  }
  if (again !== first) {
    return failAcross(at(replay, `${payload.pointer}/task_id`), want, `task_id ${preview(again)}: another task`, [book.call]);
  }
  return pass();
}

export default defineCheck({
  id: 'task.replay',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    'an async request replayed with its idempotency_key returns the original submitted answer and the same task_id, not the current state',
  spec: {
    label: 'AdCP · Security › Idempotency (a replay within the window returns the cached response); Task lifecycle (task_id)',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L1/security',
  },
  fix: 'cache the submitted answer under (account, idempotency_key) and return it unchanged (with `"replayed": true`) on a replay, even after the task moved on; the buyer polls the task for its state',
  judge(a: AgentCapture): AgentVerdict[] {
    const flow = taskFlow(a);
    if ('verdicts' in flow) return flow.verdicts;
    return [{ subject: SUBJECT, verdict: judgeReplay(flow) }];
  },
});
