// What every report says about the task lifecycle flow (harness/capture/task-flow.ts) of a sandbox agent:
// the guaranteed booking's first answer, each poll, the terminal result, the replay and the clean-up, each
// with its request and answer (bounded, redacted) — pass or fail, so an operator sees the path a task took.
// The webhook deliveries and their verification are the receiver's facts (harness/webhooks/report-facts.ts).
import type { AgentCapture, Exchange } from '../../record/exchange.ts';
import type { TaskTrace, TaskTraceCall } from '../../report/model.ts';
import { bookedBuyId, PENDING_TASK_STATUSES, pollNumber, TASK_FLOW, TASK_STEP, taskIdOf, taskStatusOf } from '../../capture/task-flow.ts';
import { answerOf, scenarioRecord, scenarioSteps, type Step } from '../../checks/scenario-view.ts';
import { own } from '../../json.ts';
import { sellerText } from '../../sanitize.ts';
import { callExcerpt } from './evidence.ts';

const REQUEST_CHARS = 300;
const ANSWER_CHARS = 500;
/** Calls listed (the flow makes at most 21: 3 test-controller calls, a booking, 15 polls, a replay, a clean-up). */
const CALLS_SHOWN = 24;

/** The trace of the task lifecycle flow; undefined when the capture has no record of it (not a sandbox run, an old recording). */
export function taskTrace(capture: AgentCapture, secrets: readonly string[]): TaskTrace | undefined {
  const found = scenarioRecord(capture, TASK_FLOW);
  if (!found) return undefined;
  const { record } = found;
  if (record.status !== 'ran') {
    const why = typeof record.reason === 'string' ? sellerText(record.reason, secrets, 400) : 'the flow did not run';
    return { text: `task lifecycle: ${record.status === 'not-applicable' ? 'not applicable' : 'untested'}: ${why}`, calls: [] };
  }
  const steps = scenarioSteps(capture, TASK_FLOW);
  const calls = steps.slice(0, CALLS_SHOWN).map((s) => traceCall(s, secrets));
  return { text: sellerText(summaryLine(steps), secrets, 600), calls };
}

function traceCall(s: Step, secrets: readonly string[]): TaskTraceCall {
  const taskId = taskIdOf(s.x);
  return {
    call: s.call,
    step: sellerText(s.step, secrets, 40),
    tool: sellerText(s.x.tool, secrets, 80),
    status: sellerText(statusWord(s.x), secrets, 120),
    ...(taskId !== undefined ? { taskId: sellerText(taskId, secrets, 120) } : {}),
    ...callExcerpt(s.x, secrets, REQUEST_CHARS, ANSWER_CHARS),
  };
}

/** What an answer said in a word or two. */
function statusWord(x: Exchange): string {
  const answer = answerOf(x);
  if (answer.kind === 'none') return 'no answer';
  if (answer.kind === 'bare-jsonrpc') return 'JSON-RPC error';
  if (answer.kind === 'adcp-error') {
    const code = own(answer.error, 'code');
    return `error ${typeof code === 'string' ? code : '(no code)'}`;
  }
  return taskStatusOf(x) ?? 'no task status';
}

/** `create_media_buy answered submitted (task t1) → 3 polls with tasks/get → completed (media_buy_id mb_1); replay: submitted (task t1); cleanup: …` */
function summaryLine(steps: readonly Step[]): string {
  const book = steps.find((s) => s.step === TASK_STEP.book);
  if (!book) return 'task lifecycle: the guaranteed booking was not made (the session ended first)';
  const first = statusWord(book.x);
  const taskId = taskIdOf(book.x);
  const forced = steps.some((s) => s.step === TASK_STEP.forceArm);
  const how = forced ? 'forced by the test controller' : 'guaranteed';
  const parts = [`task lifecycle: create_media_buy (${how}) answered ${first}${taskId !== undefined ? ` (task ${taskId})` : ''}`];
  const polls = steps.filter((s) => pollNumber(s.step) !== null);
  if (polls.length) {
    const last = polls[polls.length - 1]!;
    const buy = bookedBuyId(last.x);
    parts.push(
      `${polls.length} poll${polls.length === 1 ? '' : 's'} with ${last.x.tool} → ${statusWord(last.x)}${buy !== undefined ? ` (media_buy_id ${buy})` : ''}`,
    );
  } else if (PENDING_TASK_STATUSES.includes(first)) parts.push('no poll');
  let line = parts.join(' → ');
  for (const later of [TASK_STEP.replay, TASK_STEP.cleanup]) {
    const s = steps.find((x) => x.step === later);
    if (s) line += `; ${later}: ${statusWord(s.x)}`;
  }
  return line;
}
