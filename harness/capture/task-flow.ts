// The task lifecycle, on sandbox agents only: book a guaranteed product (the kind a seller may answer
// `submitted`, waiting on IO signing), and while the answer says submitted / working / input-required, poll
// the AdCP polling tool (legacy `tasks/get`, else its alias `get_task_status`) with include_result under a
// budget of calls and time; then replay the booking under its idempotency_key, and cancel the buy the task
// made. Every call is a recorded scenario step; the task.* checks judge them. Rules:
// https://adcontextprotocol.org/docs/building/by-layer/L3/task-lifecycle and …/async-operations.
//
// Cost: 1 booking, at most 15 polls within the agent's `timeouts.task` (default 20 s), 1 replay, 1 cancel
// (the reference seller finishes in about 300 ms: 3–5 polls). A seller that never finishes costs the
// budget, no more; one whose poll hangs costs one call timeout (the flow stops at a poll without answer).
import { randomUUID } from 'node:crypto';
import type { Exchange, ScenarioRecord } from '../record/exchange.ts';
import { own } from '../json.ts';
import { sellerNow } from '../connect/seller-clock.ts';
import { accountFor, createMediaBuyArguments } from './probes.ts';
import { bookableProduct, isSuccess, successPayload } from './scenario-facts.ts';
import type { ScenarioHost } from './scenario-host.ts';
import { mediaBuyIdOf, SANDBOX_ONLY, unanswered } from './media-buy-flow.ts';

export const TASK_FLOW = 'task-lifecycle';

export const TASK_STEP = {
  book: 'book',
  replay: 'replay',
  cleanup: 'cleanup',
} as const;

/** Poll n (1-based): `poll-1`, `poll-2`, … */
export const pollStep = (n: number): string => `poll-${n}`;
export const pollNumber = (step: string): number | null => {
  const m = /^poll-(\d{1,3})$/.exec(step);
  return m ? Number(m[1]) : null;
};

/** Task statuses that say the work goes on (enums/task-status.json): the harness follows them. */
export const PENDING_TASK_STATUSES: readonly string[] = ['submitted', 'working', 'input-required'];
/** Task statuses that end a task. */
export const TERMINAL_TASK_STATUSES: readonly string[] = ['completed', 'failed', 'canceled', 'rejected'];

/** The AdCP polling tool names, preferred first: legacy `tasks/get` (callers MUST support it through 3.x), then the alias. */
export const POLLING_TOOLS = ['tasks/get', 'get_task_status'] as const;

/** task_ids longer than this are not sent back to the seller. */
export const MAX_TASK_ID_CHARS = 256;

export interface TaskPollBudget {
  /** Polls at most. */
  maxPolls: number;
  /** From the first poll on, no poll starts after this many milliseconds. */
  maxMs: number;
  /** The wait before the first poll; each next wait is 1.5× longer, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** Defaults that keep one agent's lifecycle checks well under a minute, even against a seller that never finishes. */
export const DEFAULT_TASK_POLL_BUDGET: TaskPollBudget = { maxPolls: 15, maxMs: 20_000, firstDelayMs: 100, maxDelayMs: 2_000 };

/**
 * The budget for an agent: its `timeouts.task` (milliseconds) when configured, the default otherwise. A
 * longer time spreads the same number of polls further apart (the longest wait grows with it).
 */
export function taskPollBudget(taskMs: number | undefined): TaskPollBudget {
  if (taskMs === undefined || !Number.isFinite(taskMs) || taskMs <= 0) return DEFAULT_TASK_POLL_BUDGET;
  const { maxPolls, firstDelayMs } = DEFAULT_TASK_POLL_BUDGET;
  return {
    maxPolls,
    maxMs: taskMs,
    firstDelayMs: Math.min(firstDelayMs, taskMs),
    maxDelayMs: Math.max(firstDelayMs, Math.ceil(taskMs / 10)),
  };
}

/** A product a seller may book asynchronously (create_media_buy.mdx: only non-guaranteed buys MUST answer at once). */
export const isGuaranteed = (product: unknown): boolean => own(product, 'delivery_type') === 'guaranteed';

/** The polling tool the agent lists, preferred first; undefined when it lists neither. */
export function pollingToolOf(listed: ReadonlySet<string>): string | undefined {
  return POLLING_TOOLS.find((t) => listed.has(t));
}

/** The task status of an answer (the flat payload's `status`), if it is a string. */
export function taskStatusOf(x: Exchange | undefined): string | undefined {
  const s = x ? own(successPayload(x), 'status') : undefined;
  return typeof s === 'string' ? s : undefined;
}

/** The task_id of a success, when it is one a client can send back. */
export function taskIdOf(x: Exchange | undefined): string | undefined {
  const id = x ? own(successPayload(x), 'task_id') : undefined;
  return typeof id === 'string' && id !== '' && id.length <= MAX_TASK_ID_CHARS ? id : undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type Created = NonNullable<ScenarioRecord['created']>;

export async function taskLifecycleScenario(
  host: ScenarioHost,
  budget: TaskPollBudget = taskPollBudget(host.agent.timeouts.taskMs),
): Promise<ScenarioRecord> {
  const name = TASK_FLOW;
  const step = (s: string) => ({ name, step: s });
  if (!host.agent.sandbox) return { name, status: 'not-applicable', reason: SANDBOX_ONLY };
  if (!host.listed.has('create_media_buy')) return { name, status: 'not-applicable', reason: 'the agent does not list create_media_buy' };
  const product = bookableProduct(host.exchanges(), isGuaranteed);
  if (!product) {
    return {
      name,
      status: 'not-applicable',
      reason:
        "the seller's get_products answers offer no guaranteed product (delivery_type guaranteed) with a pricing option: nothing it would book asynchronously",
    };
  }
  const account = accountFor(host.agent);
  const args = createMediaBuyArguments(product, host.agent);
  const book = await host.call('create_media_buy', args, step(TASK_STEP.book));
  if (!book) return { name, status: 'untested', reason: 'the session ended before the booking was made' };

  let done: Exchange | undefined = isSuccess(book) && !PENDING_TASK_STATUSES.includes(taskStatusOf(book) ?? '') ? book : undefined;
  const pending = PENDING_TASK_STATUSES.includes(taskStatusOf(book) ?? '');
  const taskId = taskIdOf(book);
  const tool = pollingToolOf(host.listed);
  let silent = unanswered(book);
  if (pending && taskId !== undefined && tool !== undefined) ({ done, silent } = await poll(host, tool, taskId, account, budget));

  // The replay means something for an async answer only (a synchronous one is the idempotency walk's); a
  // seller that stopped answering would only cost another call timeout.
  if (pending && !silent) await host.call('create_media_buy', args, step(TASK_STEP.replay));

  const created = await cancel(host, done, account);
  return { name, status: 'ran', ...(created.length ? { created } : {}) };
}

/**
 * Polls until a terminal status, an answer that is no task state, or the budget: the terminal poll if
 * any, and whether the seller stopped answering (no answer, or the session over).
 */
async function poll(
  host: ScenarioHost,
  tool: string,
  taskId: string,
  account: Record<string, unknown>,
  budget: TaskPollBudget,
): Promise<{ done?: Exchange; silent: boolean }> {
  // The budget is on the seller's clock: a stall of the harness does not count against the seller.
  const started = sellerNow();
  let delay = budget.firstDelayMs;
  for (let n = 1; n <= budget.maxPolls; n++) {
    if (sellerNow() - started + delay > budget.maxMs) break;
    await sleep(delay);
    delay = Math.min(budget.maxDelayMs, Math.ceil(delay * 1.5));
    const x = await host.call(
      tool,
      { task_id: taskId, include_result: true, account: structuredClone(account) },
      { name: TASK_FLOW, step: pollStep(n) },
    );
    if (!x || unanswered(x)) return { silent: true };
    if (!isSuccess(x)) return { silent: false };
    const status = taskStatusOf(x);
    if (status !== undefined && TERMINAL_TASK_STATUSES.includes(status)) return { done: x, silent: false };
    if (status === undefined || !PENDING_TASK_STATUSES.includes(status)) return { silent: false };
  }
  return { silent: false };
}

/** The media_buy_id a task's terminal poll carries in `result` (or a synchronous booking carries itself). */
export function bookedBuyId(x: Exchange | undefined): string | undefined {
  if (!x) return undefined;
  const direct = mediaBuyIdOf(x);
  if (direct !== undefined && own(successPayload(x), 'task_id') === undefined) return direct;
  const id = own(own(successPayload(x), 'result'), 'media_buy_id');
  return typeof id === 'string' && id !== '' && id.length <= MAX_TASK_ID_CHARS ? id : direct;
}

/** Cancels the buy the task made, where the seller lets it; listed in the record's `created` either way. */
async function cancel(host: ScenarioHost, done: Exchange | undefined, account: Record<string, unknown>): Promise<Created> {
  const id = bookedBuyId(done);
  if (id === undefined || !done) return [];
  const entry = { kind: 'media_buy' as const, id, call: host.exchanges().indexOf(done) };
  if (!host.listed.has('update_media_buy'))
    return [{ ...entry, cleanup: 'kept', why: 'the agent does not list update_media_buy (the task that cancels a buy)' }];
  const args = { idempotency_key: randomUUID(), account: structuredClone(account), media_buy_id: id, canceled: true };
  const x = await host.call('update_media_buy', args, { name: TASK_FLOW, step: TASK_STEP.cleanup });
  if (x && isSuccess(x)) return [{ ...entry, cleanup: 'cleaned-up' }];
  return [{ ...entry, cleanup: 'kept', why: x ? 'update_media_buy canceled: true was refused' : 'the session ended first' }];
}

export const taskLifecycleFlow = { name: TASK_FLOW, run: (host: ScenarioHost) => taskLifecycleScenario(host) };
