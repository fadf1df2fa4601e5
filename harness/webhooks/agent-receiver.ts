// One agent's webhook receiver, start to finish (capture-agent.ts drives it): opened for sandbox agents
// only (a read-only run hands no URL out), every push-taking call names it, a bounded wait for late
// deliveries after the last call, then closed and kept as capture.webhooks.
import type { AgentConfig } from '../config/types.ts';
import { sellerNow } from '../connect/seller-clock.ts';
import { extractSuccess } from '../extract/success.ts';
import { own } from '../json.ts';
import type { Exchange, WebhookCapture, WebhookDelivery } from '../record/exchange.ts';
import { PushConfigs } from './push-config.ts';
import { WebhookReceiver, type AgentWebhooks, type ReceiverBounds } from './receiver.ts';

export interface WebhookOptions {
  /** A receiver shared by the run (`--webhook-url`: one public base forwards to one port); else each agent gets its own. */
  receiver?: WebhookReceiver;
  /** The quiet spell, in ms, the run waits for late deliveries after the last call (default LATE_MS). */
  lateMs?: number;
  bounds?: Partial<ReceiverBounds>;
}

/** Default quiet spell after the last call before the receiver closes. */
export const LATE_MS = 2_000;
/** The late-delivery wait never passes this many quiet spells, however busy the seller keeps the receiver. */
const MAX_SPELLS = 4;
/** Task states that finish later, by polling or by webhook (AdCP task-lifecycle.mdx). */
const PENDING = new Set(['submitted', 'working', 'input-required']);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)).unref());

export class AgentReceiver {
  readonly push: PushConfigs;
  private closed?: WebhookCapture;

  private constructor(
    private readonly receiver: WebhookReceiver,
    private readonly share: AgentWebhooks,
    private readonly owned: boolean,
    private readonly lateMs: number,
  ) {
    this.push = new PushConfigs(share);
  }

  /** The receiver of a sandbox agent (undefined for any other, or when `opts` is false). */
  static async open(agent: Pick<AgentConfig, 'sandbox'>, opts: WebhookOptions | false | undefined): Promise<AgentReceiver | undefined> {
    if (!agent.sandbox || opts === false) return undefined;
    const lateMs = opts?.lateMs ?? LATE_MS;
    if (opts?.receiver) return new AgentReceiver(opts.receiver, opts.receiver.register(), false, lateMs);
    const receiver = new WebhookReceiver(opts?.bounds ? { bounds: opts.bounds } : {});
    await receiver.start();
    return new AgentReceiver(receiver, receiver.register(), true, lateMs);
  }

  /**
   * After the last call: wait for late deliveries when a call answered submitted/working/input-required or
   * anything was delivered — until `lateMs` pass without one (at most MAX_SPELLS × lateMs) and no body is
   * still arriving (at most the receiver's time bound more), never past `budgetMs`.
   */
  async settle(exchanges: readonly Exchange[], budgetMs: number): Promise<void> {
    if (!this.share.deliveries.length && !this.share.omitted && !exchanges.some(answeredPending)) return;
    // On the seller's clock (harness/connect/seller-clock.ts): a stall of the harness does not use up the
    // wait, and a delivery that arrived during one is read (a turn of the loop) before the quiet is judged.
    const t0 = sellerNow();
    const wall0 = performance.now();
    // A body still arriving may take up to the receiver's time bound: it is let finish or be cut by it.
    const end = t0 + Math.max(0, Math.min(budgetMs, MAX_SPELLS * this.lateMs + this.receiver.bounds.bodyMs));
    const spellEnd = t0 + MAX_SPELLS * this.lateMs;
    const from = this.receiver.now();
    const tasks = pendingTasks(exchanges);
    const activity = () => this.share.deliveries.length + this.share.omitted + this.share.inFlight;
    let seen = activity();
    let changedAt = t0;
    const observe = (): void => {
      if (activity() === seen) return;
      seen = activity();
      changedAt = sellerNow();
    };
    // Quiet by both clocks: the receiver's (when the last delivery came) and the seller's (since the loop last saw one).
    const quietFor = () => Math.min(this.receiver.now() - Math.max(from, this.share.lastAt), sellerNow() - changedAt);
    const waiting = () =>
      this.share.inFlight > 0 ||
      (sellerNow() < spellEnd &&
        quietFor() < (tasks.size > 0 && allSettled(this.share.deliveries, tasks) ? SETTLED_GRACE_MS : this.lateMs));
    while (sellerNow() < end && waiting()) {
      await sleep(Math.min(100, end - sellerNow()));
      await new Promise<void>((r) => setImmediate(r));
      observe();
    }
    this.share.waitedMs = Math.round(performance.now() - wall0);
  }

  /** Close (an own receiver stops listening) and return what it saw; idempotent. */
  async close(): Promise<WebhookCapture> {
    if (this.closed) return this.closed;
    if (this.owned) await this.receiver.close();
    this.closed = this.share.capture();
    return this.closed;
  }
}

/** What the record keeps when the receiver could not listen: no URL was handed out, so nothing could arrive. */
export function unbound(err: unknown): WebhookCapture {
  const why = err instanceof Error ? err.message : String(err);
  return { base: '', kind: 'loopback', deliveries: [], omitted: 0, waitedMs: 0, note: `the webhook receiver could not listen: ${why}` };
}

/**
 * Once every task a call left pending has had its terminal status accepted (answered 2xx) and every event
 * refused once has been accepted on a retry, the wait needs only this short quiet spell more (to see a
 * duplicate or a second logical event), not a full late spell.
 */
const SETTLED_GRACE_MS = 300;
const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);

/** The task ids calls answered as pending. */
function pendingTasks(exchanges: readonly Exchange[]): Set<string> {
  const ids = new Set<string>();
  for (const x of exchanges) {
    if (!answeredPending(x) || x.outcome.kind !== 'result') continue;
    const id = own(extractSuccess(x.outcome.result) ?? undefined, 'task_id');
    if (typeof id === 'string') ids.add(id);
  }
  return ids;
}

/** Whether each task's terminal status was accepted and no refused event still waits for its retry. */
function allSettled(deliveries: readonly WebhookDelivery[], tasks: ReadonlySet<string>): boolean {
  const done = new Set<string>();
  const lastAnswer = new Map<string, number>();
  for (const d of deliveries) {
    let body: unknown;
    try {
      body = d.bodyEncoding === 'utf8' && !d.cut ? JSON.parse(d.body) : undefined;
    } catch {
      body = undefined;
    }
    const event = own(body, 'idempotency_key');
    if (typeof event === 'string') lastAnswer.set(event, d.answered);
    const task = own(body, 'task_id');
    const status = own(body, 'status');
    if (typeof task === 'string' && typeof status === 'string' && TERMINAL.has(status) && d.answered >= 200 && d.answered < 300)
      done.add(task);
  }
  for (const answered of lastAnswer.values()) if (answered < 200 || answered >= 300) return false;
  for (const t of tasks) if (!done.has(t)) return false;
  return true;
}

/** Whether a call answered a task state that finishes later. */
export function answeredPending(x: Exchange): boolean {
  if (x.outcome.kind !== 'result') return false;
  const status = own(extractSuccess(x.outcome.result) ?? undefined, 'status');
  return typeof status === 'string' && PENDING.has(status);
}

/**
 * The run's shared receiver under `--webhook-url` (listening on 127.0.0.1:`--webhook-port`), or undefined
 * without it or without a sandbox agent. A port that cannot be had is the operator's to fix (the run makes
 * it a usage error).
 */
export async function sharedReceiver(
  opts: { publicBase?: string; port?: number } | undefined,
  agents: ReadonlyArray<Pick<AgentConfig, 'sandbox'>>,
): Promise<WebhookReceiver | undefined> {
  if (!opts?.publicBase || !agents.some((a) => a.sandbox)) return undefined;
  const receiver = new WebhookReceiver({ publicBase: opts.publicBase, port: opts.port ?? 0 });
  try {
    await receiver.start();
  } catch (err) {
    throw new Error(
      `--webhook-port ${opts.port}: the webhook receiver could not listen on 127.0.0.1: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  return receiver;
}
