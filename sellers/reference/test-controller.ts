// The AdCP compliance test controller (`comply_test_controller`), sandbox only and only with
// `--test-controller`: the scenarios that drive create_media_buy down its async arm on demand —
// `force_create_media_buy_arm` (the next booking from the caller's account answers `submitted` with the
// caller's task_id, or `input-required`), `force_task_completion` (that task completes with the caller's
// result, its webhook carrying it) and `list_scenarios`.
// https://adcontextprotocol.org/docs/building/by-layer/L3/comply-test-controller
//
// Answers follow compliance/comply-test-controller-response.json. A refusal is both: the ControllerError
// branch (`success: false`, the controller's own `error` vocabulary) and an AdCP error (`adcp_error` with
// the canonical code a client acts on), so controller-aware runners and plain AdCP clients read it alike.
import { AdcpFailure, type AdcpErrorBody } from './adcp-error.ts';
import { cloneJson, isPlainObject, type JsonObject } from './json.ts';
import { accountKey, type MediaBuyRecord, type PackageRecord } from './media-buys.ts';
import type { SellerState } from './state.ts';
import { submittedBody, tasksOf, type TaskRecord } from './tasks.ts';

export const TEST_CONTROLLER_TOOL = 'comply_test_controller';

/** The scenarios this controller implements (names verbatim from the request schema's enum). */
export const CONTROLLER_SCENARIOS = ['force_create_media_buy_arm', 'force_task_completion'] as const;

/** The spec's bounds: a task_id of at most 128 characters, a message of at most 2000. */
const MAX_TASK_ID = 128;
const MAX_MESSAGE = 2_000;
/** force_task_completion: sellers MAY refuse a result over 256 KB. */
const MAX_RESULT_BYTES = 256 * 1024;
/** Bounds: a long-running seller must not grow without limit. */
const MAX_ENTRIES = 1_000;

/** The controller's own error vocabulary (comply-test-controller-response.json, ControllerError). */
type ControllerCode = 'NOT_FOUND' | 'INVALID_TRANSITION' | 'INVALID_PARAMS' | 'UNKNOWN_SCENARIO' | 'FORBIDDEN';

/** The canonical AdCP error code (enums/error-code.json) that says the same to a client that knows no controller. */
const CANONICAL: Record<ControllerCode, { code: string; recovery: AdcpErrorBody['recovery'] }> = {
  NOT_FOUND: { code: 'REFERENCE_NOT_FOUND', recovery: 'correctable' },
  INVALID_TRANSITION: { code: 'INVALID_STATE', recovery: 'correctable' },
  INVALID_PARAMS: { code: 'VALIDATION_ERROR', recovery: 'correctable' },
  UNKNOWN_SCENARIO: { code: 'UNSUPPORTED_FEATURE', recovery: 'correctable' },
  FORBIDDEN: { code: 'PERMISSION_DENIED', recovery: 'terminal' },
};

/** A controller refusal: an AdcpFailure whose answer also carries the ControllerError fields (server.ts merges them). */
export class ControllerFailure extends AdcpFailure {
  readonly controller: JsonObject;
  constructor(error: ControllerCode, detail: string, extra: { field?: string; currentState?: string | null } = {}) {
    super({
      code: CANONICAL[error].code,
      message: detail,
      recovery: CANONICAL[error].recovery,
      ...(extra.field !== undefined ? { field: extra.field } : {}),
    });
    this.controller = {
      // The response schema's protocol envelope requires a task status on every answer, refusals included.
      status: 'failed',
      success: false,
      error,
      error_detail: detail,
      ...(extra.currentState !== undefined ? { current_state: extra.currentState } : {}),
    };
  }
}

/** A registered directive: what the next create_media_buy from the account answers. */
export type ForcedArm = { arm: 'submitted'; task_id: string; message?: string } | { arm: 'input-required'; message?: string };

interface ControllerState {
  /** By account (accountKey; '' for a call that names none): a second directive overwrites the first. */
  directives: Map<string, ForcedArm>;
  /** The bookings behind forced tasks, by task_id: force_task_completion makes their buy addressable. */
  bookings: Map<string, JsonObject>;
}

const states = new WeakMap<SellerState, ControllerState>();

function controllerOf(state: SellerState): ControllerState {
  let c = states.get(state);
  if (!c) {
    c = { directives: new Map(), bookings: new Map() };
    states.set(state, c);
  }
  return c;
}

const slot = (account: unknown): string => accountKey(account) ?? '';

function bounded<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
}

const invalid = (detail: string, field: string): ControllerFailure => new ControllerFailure('INVALID_PARAMS', detail, { field });

function optionalMessage(params: JsonObject): string | undefined {
  const message = params['message'];
  if (message === undefined) return undefined;
  if (typeof message !== 'string' || message.length > MAX_MESSAGE)
    throw invalid(`params.message must be a string of at most ${MAX_MESSAGE} characters`, 'params.message');
  return message;
}

function forceArm(params: JsonObject, args: JsonObject, state: SellerState): JsonObject {
  const arm = params['arm'];
  const message = optionalMessage(params);
  let directive: ForcedArm;
  if (arm === 'submitted') {
    const taskId = params['task_id'];
    if (typeof taskId !== 'string' || taskId === '' || taskId.length > MAX_TASK_ID)
      throw invalid(`arm "submitted" needs params.task_id, a string of 1–${MAX_TASK_ID} characters`, 'params.task_id');
    directive = { arm, task_id: taskId, ...(message !== undefined ? { message } : {}) };
  } else if (arm === 'input-required') {
    // The task_id discriminates the submitted arm: here it would be a caller mistake, not something to ignore.
    if (params['task_id'] !== undefined) throw invalid('arm "input-required" takes no params.task_id', 'params.task_id');
    directive = { arm, ...(message !== undefined ? { message } : {}) };
  } else {
    throw invalid('params.arm must be "submitted" or "input-required"', 'params.arm');
  }
  bounded(controllerOf(state).directives, slot(args['account']), directive);
  const forced = directive.arm === 'submitted' ? { arm: directive.arm, task_id: directive.task_id } : { arm: directive.arm };
  const what = directive.arm === 'submitted' ? `the submitted arm with task_id ${directive.task_id}` : 'the input-required arm';
  return { success: true, forced, message: `Next create_media_buy call will return ${what}` };
}

/**
 * The directive registered for the booking's account, removed as it is consumed. Called inside the
 * booking's idempotent execution, so a replay of that booking gets the cached answer and never
 * consults the (now empty) slot.
 */
export function takeForcedArm(state: SellerState, args: JsonObject): ForcedArm | undefined {
  const directives = states.get(state)?.directives;
  const key = slot(args['account']);
  const directive = directives?.get(key);
  if (directive) directives!.delete(key);
  return directive;
}

/** The answer a forced booking gets: the submitted envelope with the forced task_id verbatim, or input-required. */
export function forcedAnswer(directive: ForcedArm, args: JsonObject, state: SellerState): JsonObject {
  if (directive.arm === 'input-required') {
    const message = directive.message ?? 'The publisher needs a signed IO before this buy can be booked.';
    return { status: 'input-required', message, errors: [{ code: 'IO_REQUIRED', message, recovery: 'correctable' }] };
  }
  const task = tasksOf(state).open(args, directive.task_id);
  bounded(controllerOf(state).bookings, directive.task_id, cloneJson(args));
  return submittedBody(task, directive.message ?? 'The test controller holds this booking: it completes on force_task_completion.');
}

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);

function forceCompletion(params: JsonObject, args: JsonObject, state: SellerState): JsonObject {
  const taskId = params['task_id'];
  if (typeof taskId !== 'string' || taskId === '') throw invalid('params.task_id must be a non-empty string', 'params.task_id');
  const result = params['result'];
  const task = tasksOf(state).get(taskId);
  // Another account's task is not found (the multi-tenant convention: not FORBIDDEN).
  if (!task || (task.account !== undefined && slot(task.account) !== slot(args['account'])))
    throw new ControllerFailure('NOT_FOUND', `Task ${taskId} not found`, { field: 'params.task_id', currentState: null });
  if (TERMINAL.has(task.status)) {
    throw new ControllerFailure('INVALID_TRANSITION', `Task ${taskId} is ${task.status}: a terminal task cannot complete again`, {
      currentState: task.status,
    });
  }
  checkResult(result);
  const previous = task.status;
  addressableBuy(task, result, state);
  tasksOf(state).complete(task, cloneJson(result));
  return {
    success: true,
    previous_state: previous,
    current_state: 'completed',
    message: `Task ${taskId} transitioned from ${previous} to completed`,
  };
}

/** A create_media_buy result (the only task type this seller opens): media_buy_id and packages, each with a package_id. */
function checkResult(result: unknown): asserts result is JsonObject {
  if (!isPlainObject(result)) throw invalid('params.result must be an object: the CreateMediaBuyResponse to record', 'params.result');
  if (Buffer.byteLength(JSON.stringify(result), 'utf8') > MAX_RESULT_BYTES) throw invalid('params.result is over 256 KB', 'params.result');
  const id = result['media_buy_id'];
  if (typeof id !== 'string' || id === '' || id.length > 255)
    throw invalid('params.result.media_buy_id must be a non-empty string', 'params.result.media_buy_id');
  const packages = result['packages'];
  if (!Array.isArray(packages)) throw invalid('params.result.packages must be an array', 'params.result.packages');
  for (const [i, p] of packages.entries()) {
    if (!isPlainObject(p) || typeof p['package_id'] !== 'string' || p['package_id'] === '')
      throw invalid(`params.result.packages[${i}] must be an object with a package_id`, `params.result.packages[${i}].package_id`);
  }
}

/** The buy the forced result names, stored like a booked one so get_media_buys and update_media_buy find it. */
function addressableBuy(task: TaskRecord, result: JsonObject, state: SellerState): void {
  const booking = controllerOf(state).bookings.get(task.task_id) ?? {};
  const now = new Date().toISOString();
  const requested = (Array.isArray(booking['packages']) ? booking['packages'] : []).filter(isPlainObject);
  const packages = (result['packages'] as JsonObject[]).map((p, i): PackageRecord => {
    const asked = requested[i] ?? {};
    const budget = Number(p['budget'] ?? asked['budget']);
    return {
      package_id: String(p['package_id']),
      product_id: String(p['product_id'] ?? asked['product_id'] ?? ''),
      pricing_option_id: String(p['pricing_option_id'] ?? asked['pricing_option_id'] ?? ''),
      budget: Number.isFinite(budget) ? budget : 0,
      creative_ids: [],
    };
  });
  const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback);
  const record: MediaBuyRecord = {
    media_buy_id: String(result['media_buy_id']),
    ...(task.account ? { account: cloneJson(task.account) } : {}),
    currency: str(result['currency'], 'USD'),
    total_budget: packages.reduce((sum, p) => sum + p.budget, 0),
    start_time: booking['start_time'] === 'asap' ? now : str(booking['start_time'], now),
    end_time: str(booking['end_time'], new Date(Date.now() + 30 * 86_400_000).toISOString()),
    confirmed_at: str(result['confirmed_at'], now),
    revision: typeof result['revision'] === 'number' ? result['revision'] : 1,
    canceled: false,
    hold: 'none',
    packages,
  };
  state.remember(state.mediaBuys, record.media_buy_id, record);
}

/** comply_test_controller's handler: the body of its answer, or a ControllerFailure. */
export function runTestController(args: JsonObject, state: SellerState): JsonObject {
  const scenario = args['scenario'];
  const params = isPlainObject(args['params']) ? args['params'] : undefined;
  if (args['params'] !== undefined && !params) throw invalid('params must be an object', 'params');
  // AdCP 3.1: the runner asserts a sandbox account on every call; this seller's every account is a sandbox one.
  const account = args['account'];
  if (account !== undefined && (!isPlainObject(account) || account['sandbox'] === false))
    throw new ControllerFailure('FORBIDDEN', 'The controller serves sandbox accounts only', { field: 'account' });
  switch (scenario) {
    case 'list_scenarios':
      return { success: true, scenarios: [...CONTROLLER_SCENARIOS] };
    case 'force_create_media_buy_arm':
      return forceArm(params ?? {}, args, state);
    case 'force_task_completion':
      return forceCompletion(params ?? {}, args, state);
    default:
      if (typeof scenario !== 'string' || scenario === '') throw invalid('scenario must be a non-empty string', 'scenario');
      throw new ControllerFailure('UNKNOWN_SCENARIO', `Scenario not supported: ${scenario.slice(0, 64)}`, { field: 'scenario' });
  }
}

/** The input schema the tool advertises (comply-test-controller-request.json, the fields this seller reads). */
export const testControllerInputSchema: JsonObject = {
  type: 'object',
  properties: {
    scenario: {
      type: 'string',
      description: `The seller-side transition to trigger: list_scenarios, ${CONTROLLER_SCENARIOS.join(', ')}.`,
    },
    params: {
      type: 'object',
      description:
        'Scenario parameters. force_create_media_buy_arm: {arm, task_id?, message?} (task_id required when arm = submitted). force_task_completion: {task_id, result}.',
    },
    account: { type: 'object', description: 'The sandbox account (sandbox: true).' },
    context: { type: 'object' },
    ext: { type: 'object' },
    adcp_version: { type: 'string' },
    adcp_major_version: { type: 'integer' },
  },
  required: ['scenario'],
  additionalProperties: true,
};
