// The task lifecycle, on sandbox agents only: make the seller answer a booking asynchronously, follow the
// task with the AdCP polling tool (legacy `tasks/get`, else its alias `get_task_status`) with include_result
// under a budget of calls and time, replay the booking under its idempotency_key, and cancel the buy the task
// made. Two ways to get the async answer:
// - the AdCP test controller, when the agent lists `comply_test_controller` and its `list_scenarios` names
//   force_create_media_buy_arm and force_task_completion: force the submitted arm with a task_id of ours, book
//   any bookable product, poll once, force the task's completion with a result of ours, poll to the end
//   (https://adcontextprotocol.org/docs/building/by-layer/L3/comply-test-controller);
// - otherwise book a guaranteed product (the kind a seller may answer `submitted`, waiting on IO signing).
// A controller that refuses or answers garbage before the booking sends the flow down the second way.
// Every call is a recorded scenario step; the task.* checks judge them; the record's reason names the way
// taken. Rules: https://adcontextprotocol.org/docs/building/by-layer/L3/task-lifecycle and …/async-operations.
//
// Cost: 1 booking, at most 15 polls within the agent's `timeouts.task` (default 20 s), 1 replay, 1 cancel,
// and with the controller 3 more calls (the reference seller finishes in about 300 ms: 3–5 polls). A seller
// that never finishes costs the budget, no more; one whose poll hangs costs one call timeout (the flow stops
// at a poll without answer).
import { randomUUID } from 'node:crypto';
import type { Exchange, ScenarioRecord } from '../record/exchange.ts';
import { own, preview } from '../json.ts';
import { sellerNow } from '../connect/seller-clock.ts';
import { accountFor, createMediaBuyArguments } from './probes.ts';
import { bookableProduct, isSuccess, successPayload } from './scenario-facts.ts';
import type { ScenarioHost } from './scenario-host.ts';
import { mediaBuyIdOf, SANDBOX_ONLY, unanswered } from './media-buy-flow.ts';

export const TASK_FLOW = 'task-lifecycle';

export const TASK_STEP = {
  listScenarios: 'list-scenarios',
  forceArm: 'force-arm',
  book: 'book',
  forceCompletion: 'force-completion',
  replay: 'replay',
  cleanup: 'cleanup',
} as const;

/** The AdCP compliance test controller's tool, and the scenarios the controller path needs. */
export const TEST_CONTROLLER_TOOL = 'comply_test_controller';
export const CONTROLLER_SCENARIOS = ['force_create_media_buy_arm', 'force_task_completion'] as const;

/** Where a harness-made task_id / media_buy_id starts (the spec caps a forced task_id at 128 characters). */
export const FORCED_TASK_ID_PREFIX = 'adcp-conformance-';
export const FORCED_MEDIA_BUY_PREFIX = 'adcp-conformance-mb-';

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
  if (!host.agent.sandbox) return { name, status: 'not-applicable', reason: SANDBOX_ONLY };
  if (!host.listed.has('create_media_buy')) return { name, status: 'not-applicable', reason: 'the agent does not list create_media_buy' };
  let why = `the agent does not list ${TEST_CONTROLLER_TOOL}`;
  if (host.listed.has(TEST_CONTROLLER_TOOL)) {
    const forced = await controllerPath(host, budget);
    if ('record' in forced) return forced.record;
    why = forced.fallback;
  }
  return guaranteedPath(host, budget, why);
}

/** The booking, its polls, the replay and the clean-up of a guaranteed product (no controller to force the arm). */
async function guaranteedPath(host: ScenarioHost, budget: TaskPollBudget, why: string): Promise<ScenarioRecord> {
  const name = TASK_FLOW;
  const path = `guaranteed-product path (${why})`;
  const product = bookableProduct(host.exchanges(), isGuaranteed);
  if (!product) {
    return {
      name,
      status: 'not-applicable',
      reason: `${path}: the seller's get_products answers offer no guaranteed product (delivery_type guaranteed) with a pricing option: nothing it would book asynchronously`,
    };
  }
  const account = accountFor(host.agent);
  const args = createMediaBuyArguments(product, host.agent);
  const book = await host.call('create_media_buy', args, { name, step: TASK_STEP.book });
  if (!book) return { name, status: 'untested', reason: `${path}: the session ended before the booking was made` };

  let done: Exchange | undefined = isSuccess(book) && !PENDING_TASK_STATUSES.includes(taskStatusOf(book) ?? '') ? book : undefined;
  const pending = PENDING_TASK_STATUSES.includes(taskStatusOf(book) ?? '');
  const taskId = taskIdOf(book);
  const tool = pollingToolOf(host.listed);
  let silent = unanswered(book);
  if (pending && taskId !== undefined && tool !== undefined) ({ done, silent } = await poll(host, tool, taskId, account, budget));

  // The replay means something for an async answer only (a synchronous one is the idempotency walk's); a
  // seller that stopped answering would only cost another call timeout.
  if (pending && !silent) await host.call('create_media_buy', args, { name, step: TASK_STEP.replay });

  const created = await cancel(host, done, account);
  return { name, status: 'ran', reason: path, ...(created.length ? { created } : {}) };
}

/** What a controller call came back with: its payload when the controller did it (`success: true`), else why not. */
export function controllerAnswer(x: Exchange): { data: Record<string, unknown> } | { refused: string } {
  if (unanswered(x)) return { refused: 'no answer' };
  const payload = successPayload(x);
  if (!payload) {
    const code = own(own(own(x.outcome, 'result'), 'structuredContent'), 'error') ?? own(own(x.outcome, 'error'), 'code');
    return { refused: `an error${code !== undefined ? ` (${preview(code)})` : ''}` };
  }
  if (own(payload, 'success') !== true)
    return { refused: `success ${preview(own(payload, 'success'))}, error ${preview(own(payload, 'error'))}` };
  return { data: payload };
}

/** A harness-made id: the prefix and a random part (well under the spec's 128 characters). */
const harnessId = (prefix: string): string => `${prefix}${randomUUID()}`;

/**
 * The controller path: list_scenarios, force the submitted arm with our task_id, book, poll once, force the
 * completion with our result, poll to the end, replay, cancel. A controller that cannot force the arm before
 * the booking is a `fallback` (the guaranteed path runs); past the booking the flow ends here.
 */
async function controllerPath(host: ScenarioHost, budget: TaskPollBudget): Promise<{ record: ScenarioRecord } | { fallback: string }> {
  const name = TASK_FLOW;
  const step = (s: string) => ({ name, step: s });
  const untestedRecord = (why: string) => ({ record: { name, status: 'untested' as const, reason: `controller path: ${why}` } });
  const product = bookableProduct(host.exchanges());
  if (!product) return { fallback: `${TEST_CONTROLLER_TOOL} is listed, but get_products offered no product with a pricing option to book` };
  // AdCP 3.1: every controller call asserts a sandbox account.
  const controllerAccount = { ...accountFor(host.agent), sandbox: true };

  const list = await host.call(
    TEST_CONTROLLER_TOOL,
    { scenario: 'list_scenarios', account: controllerAccount },
    step(TASK_STEP.listScenarios),
  );
  if (!list) return untestedRecord('the session ended before list_scenarios');
  const listed = controllerAnswer(list);
  if ('refused' in listed) return { fallback: `${TEST_CONTROLLER_TOOL} list_scenarios answered ${listed.refused}` };
  const scenarios = own(listed.data, 'scenarios');
  const missing = CONTROLLER_SCENARIOS.filter((sc) => !Array.isArray(scenarios) || !scenarios.includes(sc));
  if (missing.length) return { fallback: `${TEST_CONTROLLER_TOOL} list_scenarios does not name ${missing.join(', ')}` };

  const forcedTaskId = harnessId(FORCED_TASK_ID_PREFIX);
  const forceArgs = {
    scenario: 'force_create_media_buy_arm',
    params: { arm: 'submitted', task_id: forcedTaskId },
    account: controllerAccount,
  };
  const force = await host.call(TEST_CONTROLLER_TOOL, forceArgs, step(TASK_STEP.forceArm));
  if (!force) return untestedRecord('the session ended before force_create_media_buy_arm');
  const forced = controllerAnswer(force);
  if ('refused' in forced) return { fallback: `${TEST_CONTROLLER_TOOL} force_create_media_buy_arm answered ${forced.refused}` };

  const account = accountFor(host.agent);
  const args = createMediaBuyArguments(product, host.agent);
  const book = await host.call('create_media_buy', args, step(TASK_STEP.book));
  if (!book) return untestedRecord('the session ended before the booking was made');
  const path = `controller path (${TEST_CONTROLLER_TOOL} forced the submitted arm with task_id ${forcedTaskId})`;
  const pending = PENDING_TASK_STATUSES.includes(taskStatusOf(book) ?? '');
  // The task the seller answered is the one a buyer follows (task.submitted judges whether it is ours).
  const taskId = taskIdOf(book);
  const tool = pollingToolOf(host.listed);
  let done: Exchange | undefined = isSuccess(book) && !pending ? book : undefined;
  let silent = unanswered(book);
  let note = '';
  if (pending && taskId !== undefined && tool !== undefined) {
    const first = await poll(host, tool, taskId, account, { ...budget, maxPolls: 1 });
    ({ done, silent } = first);
    if (!done && !silent && first.pending) {
      const result = forcedResult(args);
      const completion = await host.call(
        TEST_CONTROLLER_TOOL,
        { scenario: 'force_task_completion', params: { task_id: taskId, result }, account: controllerAccount },
        step(TASK_STEP.forceCompletion),
      );
      const completed = completion ? controllerAnswer(completion) : { refused: 'no answer (the session ended)' };
      if ('refused' in completed) note = `; force_task_completion answered ${completed.refused}: the task was not completed`;
      else ({ done, silent } = await poll(host, tool, taskId, account, { ...budget, maxPolls: budget.maxPolls - 1 }, 2));
    }
  }
  if (pending && !silent) await host.call('create_media_buy', args, step(TASK_STEP.replay));
  const created = await cancel(host, done, account);
  return { record: { name, status: 'ran', reason: `${path}${note}`, ...(created.length ? { created } : {}) } };
}

/** The CreateMediaBuyResponse the controller records as the task's result: our media_buy_id, the booking's packages. */
export function forcedResult(booking: Record<string, unknown>): Record<string, unknown> {
  const packages = Array.isArray(booking['packages']) ? booking['packages'] : [];
  return {
    // The payload a synchronous booking answers, envelope status included (the 3.1 schema requires it;
    // `completed` is also a media-buy-status value, the deprecated meaning of this field there).
    status: 'completed',
    media_buy_id: harnessId(FORCED_MEDIA_BUY_PREFIX),
    media_buy_status: 'pending_creatives',
    confirmed_at: new Date().toISOString(),
    revision: 1,
    packages: packages.map((p, i) => {
      const pkg: Record<string, unknown> = { package_id: `adcp-conformance-pkg-${i + 1}` };
      for (const k of ['product_id', 'pricing_option_id', 'budget', 'bid_price']) if (own(p, k) !== undefined) pkg[k] = own(p, k);
      return pkg;
    }),
  };
}

/**
 * Polls until a terminal status, an answer that is no task state, or the budget: the terminal poll if
 * any, whether the seller stopped answering (no answer, or the session over), and whether the last poll
 * said the task is still pending. `from`: the number of the first poll (a second round goes on counting).
 */
async function poll(
  host: ScenarioHost,
  tool: string,
  taskId: string,
  account: Record<string, unknown>,
  budget: TaskPollBudget,
  from = 1,
): Promise<{ done?: Exchange; silent: boolean; pending?: boolean }> {
  // The budget is on the seller's clock: a stall of the harness does not count against the seller.
  const started = sellerNow();
  let delay = budget.firstDelayMs;
  let pending = false;
  for (let n = from; n < from + budget.maxPolls; n++) {
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
    pending = status !== undefined && PENDING_TASK_STATUSES.includes(status);
    if (!pending) return { silent: false };
  }
  return { silent: false, pending };
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
