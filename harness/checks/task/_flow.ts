// Shared by the task.* checks: the task-lifecycle flow's steps (harness/capture/task-flow.ts) — the
// booking (of a guaranteed product, or of any product with the test controller forcing the submitted arm),
// its polls, the controller's forced completion and the replay — or the verdicts that stand in when there
// is no async task to judge: the flow did not run, the booking got no answer or was refused, or the seller
// booked at once.
import type { AgentCapture, Exchange } from '../../record/exchange.ts';
import {
  controllerAnswer,
  PENDING_TASK_STATUSES,
  pollNumber,
  POLLING_TOOLS,
  TASK_FLOW,
  TASK_STEP,
  taskStatusOf,
} from '../../capture/task-flow.ts';
import { notApplicable, untested, type AgentVerdict } from '../check.ts';
import { own, preview, type JsonObject } from '../../json.ts';
import { about, answerOf, notRun, scenarioSteps, type Step } from '../scenario-view.ts';
import { adcpPayload, successResult, type PayloadView } from '../views.ts';

export const SUBJECT = 'create_media_buy (guaranteed)';

export interface TaskFlowView {
  /** The booking that answered submitted / working / input-required. */
  book: Step;
  /** Its payload (a success whose status is pending). */
  payload: PayloadView;
  status: string;
  /** The polls, in order (poll-1, poll-2, …). */
  polls: Step[];
  replay?: Step;
  /** Controller path: the accepted force_create_media_buy_arm and the task_id it forced. */
  forced?: { step: Step; taskId: string };
  /** Controller path: the force_task_completion call, and whether the controller did it. */
  completion?: { step: Step; accepted: boolean };
}

/**
 * The AdCP payload of a success, whatever the tool (`tasks/get` is AdCP's own polling tool, though its name
 * is no snake_case task name), or null.
 */
export function payloadOf(x: Exchange): PayloadView | null {
  const s = successResult(x);
  return 'verdict' in s ? null : adcpPayload(s.result);
}

/** The polling tools the agent lists (tasks/get, get_task_status). */
export function listedPollingTools(a: AgentCapture): string[] {
  const tools = a.toolsList?.ok ? a.toolsList.tools : [];
  return POLLING_TOOLS.filter((t) => tools.some((tool) => own(tool, 'name') === t));
}

/** No task to follow, with the verdicts that stand in; `ignored`: a forced submitted arm the booking did not answer. */
export type NoTaskFlow = {
  verdicts: AgentVerdict[];
  ignored?: { book: Step; payload: PayloadView; status: string; forced: { step: Step; taskId: string } };
};

export function taskFlow(a: AgentCapture): TaskFlowView | NoTaskFlow {
  const skipped = notRun(a, TASK_FLOW);
  if (skipped) return { verdicts: about(SUBJECT, skipped) };
  const steps = scenarioSteps(a, TASK_FLOW);
  const book = steps.find((s) => s.step === TASK_STEP.book);
  if (!book) return { verdicts: about(SUBJECT, untested('the booking was not made (the session ended first)')) };
  const answer = answerOf(book.x, book.call);
  if (answer.kind === 'none') return { verdicts: about(SUBJECT, answer.verdict) };
  if (answer.kind !== 'success') {
    return {
      verdicts: about(SUBJECT, untested(`the booking (call ${book.call}) was refused: no task to follow (see its own outcomes)`)),
    };
  }
  const payload = payloadOf(book.x);
  if (!payload)
    return {
      verdicts: about(SUBJECT, untested(`the booking (call ${book.call}) carries no AdCP payload: see envelope.extractable`)),
    };
  const status = taskStatusOf(book.x);
  if (status === undefined || !PENDING_TASK_STATUSES.includes(status)) {
    // Under an accepted force_create_media_buy_arm the seller MUST answer the submitted arm: a synchronous
    // booking then is task.submitted's failure, and leaves the other rules nothing to follow — never n/a.
    const forced = forcedOf(steps);
    if (forced) {
      const ignored = { book, payload, status: status ?? '(none)', forced };
      return {
        verdicts: about(
          SUBJECT,
          untested(
            `the seller booked at once (call ${book.call}) despite the forced submitted arm: no task to follow (see task.submitted)`,
          ),
        ),
        ignored,
      };
    }
    return {
      verdicts: about(
        SUBJECT,
        notApplicable(`the seller answered the booking (call ${book.call}) at once (status ${preview(status)}): no async task to follow`),
      ),
    };
  }
  const polls = steps.filter((s) => pollNumber(s.step) !== null).sort((x, y) => pollNumber(x.step)! - pollNumber(y.step)!);
  const replay = steps.find((s) => s.step === TASK_STEP.replay);
  const forced = forcedOf(steps);
  const completionStep = steps.find((s) => s.step === TASK_STEP.forceCompletion);
  const completion = completionStep ? { step: completionStep, accepted: 'data' in controllerAnswer(completionStep.x) } : undefined;
  return {
    book,
    payload,
    status,
    polls,
    ...(replay ? { replay } : {}),
    ...(forced ? { forced } : {}),
    ...(completion ? { completion } : {}),
  };
}

/** The task_id the flow forced, when the controller accepted the directive (the booking then had to carry it). */
function forcedOf(steps: readonly Step[]): TaskFlowView['forced'] {
  const step = steps.find((s) => s.step === TASK_STEP.forceArm);
  if (!step || !('data' in controllerAnswer(step.x))) return undefined;
  const taskId = own(own(step.x.request.arguments, 'params'), 'task_id');
  return typeof taskId === 'string' ? { step, taskId } : undefined;
}

/** The task_id of the submitted answer, if it is a non-empty string. */
export function taskIdIn(data: JsonObject): string | undefined {
  const id = own(data, 'task_id');
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export const TASK_LIFECYCLE_URL = 'https://adcontextprotocol.org/docs/building/by-layer/L3/task-lifecycle';
export const ASYNC_OPERATIONS_URL = 'https://adcontextprotocol.org/docs/building/by-layer/L3/async-operations';
