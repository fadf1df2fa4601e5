// The reference seller's async tasks: a create_media_buy of a guaranteed product waits on the
// publisher's IO approval, so it answers `submitted` with a task_id and finishes later (working, then
// completed with the media buy as its result). The buyer follows it with the AdCP polling tool — legacy
// `tasks/get` (which 3.x callers MUST support) and its alias `get_task_status` (protocol/required-tasks.mdx),
// both with the same payload — or by webhook. Shapes: core/tasks-get-response.json; the lifecycle:
// https://adcontextprotocol.org/docs/building/by-layer/L3/task-lifecycle
import { AdcpFailure } from './adcp-error.ts';
import { cloneJson, isPlainObject, type JsonObject } from './json.ts';
import { accountKey } from './media-buys.ts';
import type { SellerState } from './state.ts';

/** The AdCP task statuses this seller's tasks pass through (enums/task-status.json). */
export type TaskStatus = 'submitted' | 'working' | 'completed' | 'failed';

export interface TaskRecord {
  task_id: string;
  task_type: 'create_media_buy';
  protocol: 'media-buy';
  status: TaskStatus;
  created_at: string;
  updated_at: string;
  completed_at?: string;
  /** The account reference of the request that started it: a poll naming another account does not see it. */
  account?: JsonObject;
  /** The request's push_notification_config, as sent (webhook delivery reads it). */
  push_notification_config?: JsonObject;
  /** The request's top-level context: every webhook of the task echoes it (webhooks.mdx, "Echoing the caller's context"). */
  context?: JsonObject;
  /** The terminal payload, shaped as the task would have answered synchronously (status included). */
  result?: JsonObject;
  error?: { code: string; message: string };
}

/**
 * When the seller's approval arrives: the task is `working` after `workingMs` and terminal after
 * `completedMs` (short: a conformance run follows it to the end within its budget).
 */
export const TASK_TIMING = { workingMs: 100, completedMs: 300 } as const;

export type TaskListener = (task: Readonly<TaskRecord>) => void;

/** Bounds: a long-running seller must not grow without limit. */
const MAX_TASKS = 1_000;

export class TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly listeners: TaskListener[] = [];
  private next = 1;

  /** Called on every status change (the submitted one included): webhook delivery subscribes here. */
  onStatus(listener: TaskListener): void {
    this.listeners.push(listener);
  }

  /**
   * A new task in `submitted`, moved to `working` and then finished by `finish` (its result, or the
   * AdcpFailure it throws) on the seller's clock. Timers are unref'd: they never keep a process alive.
   */
  start(args: JsonObject, finish: () => JsonObject | Promise<JsonObject>, timing: typeof TASK_TIMING = TASK_TIMING): TaskRecord {
    const task = this.open(args, `task_${String(this.next++).padStart(4, '0')}_${Math.random().toString(36).slice(2, 10)}`);
    setTimeout(() => this.move(task, 'working'), timing.workingMs).unref();
    setTimeout(() => {
      void (async () => {
        try {
          const result = await finish();
          this.move(task, 'completed', { result });
        } catch (err) {
          const error =
            err instanceof AdcpFailure
              ? { code: err.body.code, message: err.body.message }
              : { code: 'INTERNAL_ERROR', message: 'The task failed' };
          this.move(task, 'failed', { error });
        }
      })();
    }, timing.completedMs).unref();
    return task;
  }

  /**
   * A task in `submitted` under `taskId` that moves only when `complete` is called (the test controller's
   * forced submitted arm: the caller chose the id and decides when it finishes). A task already under that
   * id is replaced: sandbox ids are the caller's to reuse.
   */
  open(args: JsonObject, taskId: string): TaskRecord {
    const now = new Date().toISOString();
    const account = isPlainObject(args['account']) ? cloneJson(args['account']) : undefined;
    const push = isPlainObject(args['push_notification_config']) ? cloneJson(args['push_notification_config']) : undefined;
    const context = isPlainObject(args['context']) ? cloneJson(args['context']) : undefined;
    const task: TaskRecord = {
      task_id: taskId,
      task_type: 'create_media_buy',
      protocol: 'media-buy',
      status: 'submitted',
      created_at: now,
      updated_at: now,
      ...(account ? { account } : {}),
      ...(push ? { push_notification_config: push } : {}),
      ...(context ? { context } : {}),
    };
    this.tasks.delete(taskId);
    this.tasks.set(taskId, task);
    while (this.tasks.size > MAX_TASKS) this.tasks.delete(this.tasks.keys().next().value!);
    this.emit(task);
    return task;
  }

  /** Finishes a task with `result` (its webhook carries it). The caller checked the task is not terminal. */
  complete(task: TaskRecord, result: JsonObject): void {
    this.move(task, 'completed', { result });
  }

  get(taskId: string): TaskRecord | undefined {
    return this.tasks.get(taskId);
  }

  private move(task: TaskRecord, status: TaskStatus, extra: Pick<TaskRecord, 'result' | 'error'> = {}): void {
    const now = new Date().toISOString();
    Object.assign(task, { status, updated_at: now }, extra);
    if (status === 'completed' || status === 'failed') task.completed_at = now;
    this.emit(task);
  }

  private emit(task: TaskRecord): void {
    for (const l of this.listeners) {
      try {
        l(task);
      } catch {
        // A listener's failure (a webhook that could not be queued) never breaks the task itself.
      }
    }
  }
}

const stores = new WeakMap<SellerState, TaskStore>();

/** The tasks of one running seller (kept beside its state, never persisted). */
export function tasksOf(state: SellerState): TaskStore {
  let store = stores.get(state);
  if (!store) {
    store = new TaskStore();
    stores.set(state, store);
  }
  return store;
}

/** The `submitted` body a task's first answer carries (create-media-buy-response.json, submitted branch). */
export function submittedBody(
  task: TaskRecord,
  message = 'Guaranteed inventory needs the publisher to sign the IO: follow the task with tasks/get or by webhook.',
): JsonObject {
  return { status: 'submitted', task_id: task.task_id, message };
}

/**
 * tasks/get and get_task_status: the task's state (core/tasks-get-response.json); `result` only when it
 * completed and the caller asked for it with include_result. An unknown task, or one of another
 * account, is REFERENCE_NOT_FOUND (tasks-get-request.json `account`).
 */
export function pollTask(args: JsonObject, state: SellerState): JsonObject {
  const id = typeof args['task_id'] === 'string' ? args['task_id'] : '';
  const task = tasksOf(state).get(id);
  const asked = accountKey(args['account']);
  if (!task || (asked !== undefined && task.account !== undefined && accountKey(task.account) !== asked)) {
    throw new AdcpFailure({
      code: 'REFERENCE_NOT_FOUND',
      message: 'No task with this task_id for this account',
      recovery: 'correctable',
      field: 'task_id',
      suggestion: 'Use the task_id a submitted answer returned, under the account that made the request.',
    });
  }
  return {
    task_id: task.task_id,
    task_type: task.task_type,
    protocol: task.protocol,
    status: task.status,
    created_at: task.created_at,
    updated_at: task.updated_at,
    ...(task.completed_at ? { completed_at: task.completed_at } : {}),
    has_webhook: task.push_notification_config !== undefined,
    ...(task.status === 'completed' && args['include_result'] === true && task.result ? { result: cloneJson(task.result) } : {}),
    ...(task.status === 'failed' && task.error ? { error: { ...task.error } } : {}),
  };
}

/** The polling tools' input (tasks-get-request.json): task_id required, include_result a boolean. */
export const pollInputProperties = {
  task_id: { type: 'string', minLength: 1, maxLength: 256 },
  account: { type: 'object' },
  include_history: { type: 'boolean' },
  include_result: { type: 'boolean' },
} as const;

/** The names of the polling tool: legacy `tasks/get` and the alias `get_task_status`. */
export const POLLING_TOOLS = ['tasks/get', 'get_task_status'] as const;
