// The reference seller's webhook delivery: each status change of an async task is POSTed to the buyer's
// push_notification_config.url, signed under the AdCP RFC 9421 webhook profile (security.mdx, "Webhook
// callbacks": tag adcp/webhook-signing/v1, the five covered components, content-digest), with a payload
// per core/mcp-webhook-payload.json that echoes the buyer's operation_id and context. A 5xx (or no answer)
// is retried with bounded backoff under the same event idempotency_key (webhooks.mdx, "Reliability").
// Only a config without `authentication` is served: that block selects the deprecated Bearer/HMAC modes,
// which this seller does not implement (it logs and sends nothing rather than sign the wrong way).
// A call that completed inline never reaches this module: only tasks.ts's async path calls it.
import { createPrivateKey, randomUUID, sign as cryptoSign, createHash } from 'node:crypto';
import type { AdcpJsonWebKey } from '@adcp/sdk/signing';
import { sdkSigning } from './sdk-signing.ts';
import { isPlainObject, type JsonObject } from './json.ts';

/**
 * The seller's webhook-signing key. TEST-ONLY and public by design (like the official vectors' keys):
 * a fixed key lets a config name the seller's JWKS before the seller starts. Never trust it elsewhere.
 */
const SIGNING_KEY = {
  kid: 'reference-seller-webhook-2026',
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'RebhuZ2e1h0NQdpqJ6Lt7CejlpDtD1tQY636BWOKafU',
  d: 'ALyx1NDIBkeVu5JF9jGl_D2T_EHbAWvkXZdWQJOHFR8',
} as const;

/**
 * The public JWKS a buyer verifies this seller's webhooks with. `adcp_use: "request-signing"`: AdCP 3.1
 * signs webhooks with the agent's request-signing key (security.mdx step 8; "webhook-signing" is deprecated).
 */
export function webhookJwks(): { keys: AdcpJsonWebKey[] } {
  const { d: _private, ...pub } = SIGNING_KEY;
  return { keys: [{ ...pub, alg: 'EdDSA', use: 'sig', key_ops: ['verify'], adcp_use: 'request-signing' }] };
}

/** The buyer's registration, as the request carried it. */
export interface PushConfig {
  url: string;
  operation_id?: string;
  token?: string;
}

/** The push_notification_config of a request when this seller serves it (a URL, no `authentication`). */
export function pushConfigOf(args: JsonObject): PushConfig | undefined {
  const raw = args['push_notification_config'];
  if (!isPlainObject(raw) || typeof raw['url'] !== 'string') return undefined;
  if (raw['authentication'] !== undefined) {
    process.stderr.write('reference-seller: push_notification_config with authentication (legacy mode): no webhook sent\n');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(raw['url']);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return {
    url: raw['url'],
    ...(typeof raw['operation_id'] === 'string' ? { operation_id: raw['operation_id'] } : {}),
    ...(typeof raw['token'] === 'string' ? { token: raw['token'] } : {}),
  };
}

/** One status change of a task, as the webhook reports it. */
export interface TaskEvent {
  task_id: string;
  task_type: string;
  status: string;
  /** The request's top-level `context`, echoed verbatim. */
  context?: JsonObject;
  /** The task's response (completed / failed) or status data. */
  result?: JsonObject;
  message?: string;
}

/** Bugs a fault gives the delivery (sellers/faults/webhook-*.ts), each what a real seller with it does. */
export interface WebhookBugs {
  /** Sends the delivery without Signature / Signature-Input. */
  unsigned?: boolean;
  /** Signs, then alters the body after signing (content-digest no longer matches). */
  tamperAfterSigning?: boolean;
  /** Leaves operation_id out of the payload. */
  dropOperationId?: boolean;
  /** Leaves the buyer's context out of the payload. */
  dropContext?: boolean;
  /** Mints a fresh idempotency_key for every attempt (a retry looks like a new event). */
  newKeyPerAttempt?: boolean;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Wait before the second attempt; doubles each time. */
  firstDelayMs: number;
  /** One attempt's time limit. */
  attemptTimeoutMs: number;
}

/** Bounded: at most 4 attempts over ~1.4 s of waiting, so a run's wait for late deliveries covers them. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, firstDelayMs: 200, attemptTimeoutMs: 5_000 };

export interface DeliveryOutcome {
  idempotencyKey: string;
  /** HTTP status of each attempt (0: no answer). */
  statuses: number[];
  delivered: boolean;
}

/** The payload of one event (core/mcp-webhook-payload.json). */
export function webhookPayload(push: PushConfig, event: TaskEvent, idempotencyKey: string, bugs: WebhookBugs = {}): JsonObject {
  return {
    idempotency_key: idempotencyKey,
    ...(push.operation_id !== undefined && !bugs.dropOperationId ? { operation_id: push.operation_id } : {}),
    task_id: event.task_id,
    task_type: event.task_type,
    status: event.status,
    timestamp: new Date().toISOString(),
    ...(push.token !== undefined ? { token: push.token } : {}),
    ...(event.context !== undefined && !bugs.dropContext ? { context: event.context } : {}),
    ...(event.message !== undefined ? { message: event.message } : {}),
    ...(event.result !== undefined ? { result: event.result } : {}),
  };
}

/** base64url without padding: the profile's encoding of Content-Digest (security.mdx, binary value encoding). */
function contentDigest(body: string): string {
  return `sha-256=:${createHash('sha256').update(body, 'utf8').digest('base64url')}:`;
}

/**
 * The headers of one signed delivery. The SDK canonicalizes (prepareWebhookSignature), but writes
 * Content-Digest in standard base64, which the profile forbids signers to emit: the digest is replaced
 * by its base64url form and the signature base rebuilt over it before signing.
 */
export function signedHeaders(url: string, body: string, now: number = Math.floor(Date.now() / 1000)): Record<string, string> {
  const request = { method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body };
  const { buildSignatureBase, finalizeRequestSignature, prepareWebhookSignature } = sdkSigning();
  const prepared = prepareWebhookSignature(request, { keyid: SIGNING_KEY.kid, alg: 'ed25519' }, { now: () => now, windowSeconds: 300 });
  const headers = { ...prepared.headers, 'Content-Digest': contentDigest(body) };
  const base = buildSignatureBase(prepared.components, { ...request, headers }, prepared.params);
  const key = createPrivateKey({ key: { ...SIGNING_KEY }, format: 'jwk' });
  const signature = cryptoSign(null, Buffer.from(base, 'utf8'), key);
  return finalizeRequestSignature({ ...prepared, headers, base }, signature).headers;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** POSTs one attempt; the status, or 0 when nothing came back in time. */
async function attempt(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
  try {
    const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await res.body?.cancel();
    return res.status;
  } catch {
    return 0;
  }
}

/** Delivers the events of one process; faults' bugs apply to every delivery. */
export class WebhookSender {
  private readonly inFlight = new Set<Promise<DeliveryOutcome>>();

  constructor(
    private readonly bugs: WebhookBugs = {},
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {}

  /** Delivers one event (retries included) in the background; the promise settles when it is done. */
  deliver(push: PushConfig, event: TaskEvent): Promise<DeliveryOutcome> {
    const run = this.run(push, event);
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
    return run;
  }

  /** Settles when every delivery begun so far is done (tests, orderly exit). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  private async run(push: PushConfig, event: TaskEvent): Promise<DeliveryOutcome> {
    // One key per logical event, drawn once: every retry carries it (unless a fault says otherwise).
    let key = randomUUID();
    const statuses: number[] = [];
    for (let n = 0; n < this.retry.attempts; n++) {
      if (n > 0) {
        await sleep(this.retry.firstDelayMs * 2 ** (n - 1));
        if (this.bugs.newKeyPerAttempt) key = randomUUID();
      }
      const body = JSON.stringify(webhookPayload(push, event, key, this.bugs));
      let headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (!this.bugs.unsigned) headers = signedHeaders(push.url, body);
      // Re-serialized after signing: the bytes on the wire are not the ones the digest covers.
      const wire = this.bugs.tamperAfterSigning ? body.replace(/}$/, ',"tampered":true}') : body;
      const status = await attempt(push.url, wire, headers, this.retry.attemptTimeoutMs);
      statuses.push(status);
      // 2xx: delivered. 4xx: the receiver refuses the event for good. 5xx / no answer: try again.
      if (status >= 200 && status < 300) return { idempotencyKey: key, statuses, delivered: true };
      if (status >= 400 && status < 500) break;
    }
    return { idempotencyKey: key, statuses, delivered: false };
  }
}

/** What the delivery needs of a task (tasks.ts TaskRecord): its ids, status, registration, result. */
export interface TaskLike {
  task_id: string;
  task_type: string;
  status: string;
  push_notification_config?: JsonObject;
  /** The request's top-level context (echoed on every delivery). */
  context?: JsonObject;
  result?: JsonObject;
  error?: { code: string; message: string };
}

/** A source of task status changes (tasks.ts TaskStore.onStatus). */
export interface TaskStatusSource {
  onStatus(listener: (task: Readonly<TaskLike>) => void): void;
}

const attached = new WeakSet<TaskStatusSource>();

/**
 * Delivers every status change of a task after its first answer (working, completed, failed …) to its
 * push_notification_config: the `submitted` answer was the call's own, so it is never a webhook. Once per
 * store (several MCP sessions share one seller's tasks).
 */
export function deliverTaskWebhooks(store: TaskStatusSource, sender: WebhookSender): void {
  if (attached.has(store)) return;
  attached.add(store);
  store.onStatus((task) => {
    if (task.status === 'submitted' || !task.push_notification_config) return;
    const push = pushConfigOf({ push_notification_config: task.push_notification_config });
    if (!push) return;
    const result = task.result ?? (task.error ? { errors: [task.error] } : undefined);
    void sender.deliver(push, {
      task_id: task.task_id,
      task_type: task.task_type,
      status: task.status,
      ...(task.context ? { context: task.context } : {}),
      ...(result ? { result } : {}),
    });
  });
}
