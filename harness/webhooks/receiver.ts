// The webhook receiver the harness hosts: a node:http server on 127.0.0.1 (ephemeral port unless told one)
// that records every request a seller makes to it as a WebhookDelivery, for the webhook checks to judge.
// One receiver may serve several agents (each registers a random token: its URLs are `<base>/<token>/<call>`).
// It answers 503 to the first delivery of each event (to see the seller retry, AdCP webhooks.mdx › Reliability)
// and 204 after; 404 to a path it did not hand out; 413 past the body bound. Everything is bounded — count,
// bytes per body and in total, time per body, connections — so a flood or an endless body never takes
// memory or the run down: past a bound a request is answered and its connection closed.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookCapture, WebhookDelivery } from '../record/exchange.ts';

export interface ReceiverBounds {
  /** Deliveries kept per agent; later ones are counted in `omitted`, answered 429 unread. */
  maxDeliveries: number;
  /** Bytes of one body kept; past it the request is answered 413 and cut. */
  maxBodyBytes: number;
  /** Body bytes kept per agent in all; past it deliveries are omitted (answered 429 unread). */
  maxTotalBytes: number;
  /** Time one request may take to send its body; a slower one is answered 408 and cut. */
  bodyMs: number;
  /** Connections open at once; more are refused by the server. */
  maxConnections: number;
  /** Headers kept per delivery, and characters kept of each value. */
  maxHeaders: number;
  maxHeaderChars: number;
}

export const DEFAULT_BOUNDS: ReceiverBounds = {
  maxDeliveries: 200,
  maxBodyBytes: 1024 * 1024,
  maxTotalBytes: 8 * 1024 * 1024,
  bodyMs: 5_000,
  maxConnections: 32,
  maxHeaders: 64,
  maxHeaderChars: 4096,
};

/** Header values never kept (a seller sending a bearer token to the buyer must not put it in a report). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-goog-api-key']);
export const REDACTED = '[redacted]';
/** `answered` of a request the seller abandoned before the receiver could answer. */
export const NOT_ANSWERED = 0;

export interface ReceiverOptions {
  /** A public base (`--webhook-url`) that forwards to this receiver: the URLs handed out name it. */
  publicBase?: string;
  /** The loopback port to listen on (0: ephemeral). A public base needs a known one. */
  port?: number;
  bounds?: Partial<ReceiverBounds>;
}

/** One agent's share of a receiver: its URLs, its deliveries. */
export class AgentWebhooks {
  readonly deliveries: WebhookDelivery[] = [];
  omitted = 0;
  keptBytes = 0;
  /** Call index → operation_id handed out (a path naming another index is unknown). */
  readonly issued = new Map<number, string>();
  /** Events (idempotency_key, else body hash) seen: the first is answered 503. */
  readonly events = new Set<string>();
  waitedMs = 0;
  /** Last arrival, ms since the receiver started (the late-delivery wait ends after a quiet spell). */
  lastAt = -1;
  /** Requests still sending their body (the late-delivery wait lets them finish or hit the time bound). */
  inFlight = 0;

  constructor(
    private readonly receiver: WebhookReceiver,
    readonly token: string,
  ) {}

  /** The push_notification_config URL of call `index`. */
  urlFor(index: number, operationId: string): string {
    this.issued.set(index, operationId);
    return `${this.receiver.base}/${this.token}/${index}`;
  }

  /** What was seen, as the record keeps it (copies). */
  capture(note?: string): WebhookCapture {
    return {
      base: this.receiver.base,
      kind: this.receiver.kind,
      deliveries: this.deliveries.map((d) => ({ ...d, headers: d.headers.map(([k, v]) => [k, v] as [string, string]) })),
      omitted: this.omitted,
      waitedMs: this.waitedMs,
      ...(note ? { note } : {}),
    };
  }
}

export class WebhookReceiver {
  readonly bounds: ReceiverBounds;
  readonly kind: 'loopback' | 'public';
  private readonly agents = new Map<string, AgentWebhooks>();
  private server?: Server;
  private started = performance.now();
  private address = '';
  /** Requests that named no registered agent while several were registered (not attributable). */
  unattributed = 0;

  constructor(private readonly opts: ReceiverOptions = {}) {
    this.bounds = { ...DEFAULT_BOUNDS, ...opts.bounds };
    this.kind = opts.publicBase ? 'public' : 'loopback';
  }

  /** The base URL the calls name. */
  get base(): string {
    return this.opts.publicBase ? this.opts.publicBase.replace(/\/+$/, '') : this.address;
  }

  /** Listen on 127.0.0.1 only (never another interface: a public base is a forwarder the operator runs). */
  async start(): Promise<void> {
    const server = createServer(
      { maxHeaderSize: 16 * 1024, requestTimeout: this.bounds.bodyMs + 1000, headersTimeout: this.bounds.bodyMs },
      (req, res) => this.handle(req, res),
    );
    server.maxConnections = this.bounds.maxConnections;
    server.keepAliveTimeout = 1000;
    server.on('clientError', (_err, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.unref();
    this.server = server;
    this.started = performance.now();
    this.address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** A new agent's share, under a fresh random token. */
  register(): AgentWebhooks {
    const agent = new AgentWebhooks(this, randomBytes(12).toString('hex'));
    this.agents.set(agent.token, agent);
    return agent;
  }

  now(): number {
    return Math.round(performance.now() - this.started);
  }

  /** Stop listening and drop every open connection (a seller still sending is cut). */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  /** Which agent and call a target names: `…/<token>/<index>` (a forwarder may keep a prefix of its own). */
  private route(target: string): { agent?: AgentWebhooks; call?: number } {
    const path = target.split('?')[0] ?? '';
    const parts = path.split('/').filter((p) => p !== '');
    const [token, index] = parts.slice(-2);
    const agent = token !== undefined ? this.agents.get(token) : undefined;
    if (agent && index !== undefined && /^\d{1,9}$/.test(index) && agent.issued.has(Number(index))) return { agent, call: Number(index) };
    // A wrong path is still recorded, against the agent it can belong to.
    if (agent) return { agent };
    const only = this.agents.size === 1 ? [...this.agents.values()][0] : undefined;
    return only ? { agent: only } : {};
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const at = this.now();
    const target = (req.url ?? '').slice(0, 2048);
    const { agent, call } = this.route(target);
    if (!agent) {
      this.unattributed++;
      return refuse(req, res, 404);
    }
    agent.lastAt = at;
    const b = this.bounds;
    if (agent.deliveries.length >= b.maxDeliveries || agent.keptBytes >= b.maxTotalBytes) {
      agent.omitted++;
      return refuse(req, res, 429);
    }
    const delivery: WebhookDelivery = {
      at,
      method: req.method ?? '',
      target,
      ...(call !== undefined ? { call } : {}),
      headers: headersOf(req.rawHeaders, b),
      body: '',
      bodyEncoding: 'utf8',
      bodyBytes: 0,
      answered: NOT_ANSWERED,
    };
    agent.deliveries.push(delivery);
    agent.inFlight++;
    const limit = Math.min(b.maxBodyBytes, b.maxTotalBytes - agent.keptBytes);
    const chunks: Buffer[] = [];
    let kept = 0;
    let done = false;
    const finish = (status: number, cut?: WebhookDelivery['cut']) => {
      if (done) return;
      done = true;
      agent.inFlight--;
      clearTimeout(timer);
      const body = Buffer.concat(chunks, kept);
      const text = utf8(body);
      delivery.body = text ?? body.toString('base64');
      delivery.bodyEncoding = text === undefined ? 'base64' : 'utf8';
      if (cut) delivery.cut = cut;
      agent.keptBytes += kept;
      if (cut === 'aborted') return;
      if (status === 0) status = call === undefined ? 404 : req.method !== 'POST' ? 405 : firstOf(agent, body, text) ? 503 : 204;
      delivery.answered = status;
      if (cut) return refuse(req, res, status);
      res.writeHead(status, { 'content-length': '0' }).end();
      agent.lastAt = this.now();
    };
    const timer = setTimeout(() => finish(408, 'time'), b.bodyMs);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      delivery.bodyBytes += chunk.length;
      if (kept + chunk.length > limit) {
        chunks.push(chunk.subarray(0, limit - kept));
        kept = limit;
        return finish(413, 'bytes');
      }
      chunks.push(chunk);
      kept += chunk.length;
    });
    req.on('end', () => finish(0));
    req.on('close', () => finish(NOT_ANSWERED, 'aborted'));
    req.on('error', () => finish(NOT_ANSWERED, 'aborted'));
  }
}

/** Answer and close the connection without reading what is left of the request. */
function refuse(req: IncomingMessage, res: ServerResponse, status: number): void {
  if (!res.headersSent) res.writeHead(status, { connection: 'close', 'content-length': '0' });
  res.end(() => req.socket.destroy());
  // A seller that never reads the answer does not hold the socket either.
  setTimeout(() => req.socket.destroy(), 500).unref();
}

/** Whether this is the first delivery of its event: the payload's `idempotency_key`, else the body's hash. */
function firstOf(agent: AgentWebhooks, body: Buffer, text: string | undefined): boolean {
  const event = eventOf(body, text);
  if (agent.events.has(event)) return false;
  agent.events.add(event);
  return true;
}

export function eventOf(body: Buffer, text: string | undefined): string {
  if (text !== undefined) {
    try {
      const key = (JSON.parse(text) as { idempotency_key?: unknown } | null)?.idempotency_key;
      if (typeof key === 'string' && key !== '') return `key:${key}`;
    } catch {
      /* not JSON: the bytes are the event */
    }
  }
  return `sha256:${createHash('sha256').update(body).digest('hex')}`;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
function utf8(body: Buffer): string | undefined {
  try {
    return decoder.decode(body);
  } catch {
    return undefined;
  }
}

function headersOf(raw: readonly string[], b: ReceiverBounds): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length && out.length < b.maxHeaders; i += 2) {
    const name = raw[i]!.toLowerCase().slice(0, 256);
    const value = raw[i + 1]!;
    out.push([name, CREDENTIAL_HEADERS.has(name) ? REDACTED : value.slice(0, b.maxHeaderChars)]);
  }
  return out;
}
