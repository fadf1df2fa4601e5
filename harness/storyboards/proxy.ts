// The loopback MCP endpoint the storyboard runner talks to. The official runner only speaks HTTP, reads
// bodies without a bound, waits 60 s on a hung call and then retries it; so it never talks to the agent
// itself. It talks to this endpoint (127.0.0.1, ephemeral port, an unguessable path, JSON answers only),
// which relays every request through a forwarding function the harness gives it: the agent's own
// session, with the harness's byte cap and timeouts. Lifecycle messages are answered here (the agent's
// session is already initialized; a second initialize on it would break MCP), everything else is
// forwarded one at a time, and every tools/call becomes an Exchange the catalog can judge.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Exchange, ExchangeOutcome, HttpObservation, TransportFailure } from '../record/exchange.ts';
import { isObject, own, safeStringify } from '../json.ts';

/** Whose credentials a request carries, as the proxy reads its `Authorization` header. */
export type ProxyAuth =
  /** The runner's normal calls (the proxy's own bearer token): forward with the agent's configured credentials. */
  | { kind: 'configured' }
  /** No credentials (a storyboard's `auth: none` probe): forward without the agent's credentials. */
  | { kind: 'none' }
  /** Some other `Authorization` value (a storyboard's deliberately invalid key): forward it instead of ours. */
  | { kind: 'override'; authorization: string };

export interface ForwardRequest {
  method: string;
  /** The request's params exactly as the runner sent them (parsed JSON). */
  params: Record<string, unknown> | undefined;
  auth: ProxyAuth;
  /** Aborted when the proxy's own call timeout passes or the proxy closes: stop the call and settle. */
  signal: AbortSignal;
  /** The proxy's call timeout, for forwarders that set their own timer. */
  timeoutMs: number;
}

/**
 * What the agent answered. `answer` carries the agent's raw JSON-RPC response (its `result` or `error`
 * is relayed; the id is the runner's); `failure` is no answer at all. A failure of kind `http-status`
 * (401, 403 …) is relayed to the runner with its status and `WWW-Authenticate` (from `http`).
 */
export type ForwardAnswer =
  | { kind: 'answer'; message: Record<string, unknown>; bytes?: number; http?: HttpObservation; stderrDuring?: string }
  | { kind: 'failure'; failure: TransportFailure; http?: HttpObservation; stderrDuring?: string };

export type Forward = (request: ForwardRequest) => Promise<ForwardAnswer>;

/** One request the runner made, as the proxy saw it (tools/call carries its Exchange). */
export interface ProxiedCall {
  /** Arrival order, from 0. */
  seq: number;
  /** What the harness was running when it arrived (set with `label()`; the storyboard id). */
  label?: string;
  method: string;
  auth: ProxyAuth['kind'];
  /** tools/call only: the tool and arguments the runner sent (also when the call was refused). */
  tool?: string;
  arguments?: Record<string, unknown>;
  /** tools/call only, when it was forwarded: the call as the catalog judges it. */
  exchange?: Exchange;
  /** Answered with the failure of an identical request a moment before, not forwarded (the runner's retry). */
  repeatOf?: number;
  /** Not forwarded: the harness refused it (e.g. a mutating task on an agent not marked sandbox). */
  refused?: string;
}

export interface StoryboardProxyOptions {
  /** Agent name for the Exchanges (as in the config). */
  agent: string;
  /** The agent's initialize answer, replayed to the runner. */
  handshake: { protocolVersion: string; capabilities?: unknown; serverInfo?: unknown };
  /** The agent's tools as listed (raw), for each Exchange's `advertised`. */
  tools?: readonly unknown[];
  forward: Forward;
  /** Each request as it settles (called synchronously; a throwing listener is ignored). */
  onCall?: (call: ProxiedCall) => void;
  /** Our per-call timeout (well under the runner's 60 s, so the runner never times out or retries first). */
  callTimeoutMs: number;
  /** Cap on the answer relayed to the runner, in bytes (the forwarder's own cap normally bites first). */
  maxResponseBytes: number;
  /** Cap on one request body from the runner. */
  maxRequestBytes?: number;
  /** A reason to refuse a tools/call without forwarding it (mutating tasks on a production agent …). */
  refuse?: (tool: string, args: Record<string, unknown>) => string | undefined;
  /**
   * GET of an RFC 9728 / RFC 8414 well-known document under the proxy's origin (the security storyboard
   * probes them). Absent: 404 (the proxy serves no OAuth metadata of its own).
   */
  wellKnown?: (path: string) => Promise<{ status: number; contentType?: string; body: string } | undefined>;
  /** Calls kept in `calls` (and sequence numbers handed out); past it only `onCall` sees them. */
  maxCalls?: number;
}

export interface StoryboardProxy {
  /** The MCP endpoint to give the runner (`http://127.0.0.1:<port>/<random>/mcp`). */
  url: string;
  /** The bearer token the runner must send on its normal calls (a random value, never the agent's secret). */
  token: string;
  /** Tag the requests that arrive from now on (the storyboard being run). */
  label(label: string | undefined): void;
  /** Replace the refusal rule (`refuse` of the options) for the requests that arrive from now on. */
  refuseWith(refuse: StoryboardProxyOptions['refuse']): void;
  /** Every request kept so far, in arrival order. */
  readonly calls: readonly ProxiedCall[];
  /** Stop listening, abort the call in flight, drop every socket. Never throws. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;
export const DEFAULT_MAX_CALLS = 5000;
/** Requests waiting behind the one in flight; more get HTTP 503 (the runner sends one at a time). */
export const MAX_QUEUED = 16;
/** How long a failed call's answer is reused for an identical request (the runner retries at once). */
export const REPEAT_WINDOW_MS = 10_000;
/** Marker in every JSON-RPC error the proxy writes itself, so no one mistakes it for the agent's words. */
export const PROXY_MARK = '[adcp-conformance proxy]';
/** A forwarder that ignores the abort signal still frees the queue after this much extra time. */
const SETTLE_GRACE_MS = 1000;
/** The protocol revision the proxy answers `initialize` with when the agent's is unknown. */
const FALLBACK_REVISION = '2025-06-18';

type JsonRpcId = string | number;
type Reply = { status: number; headers?: Record<string, string>; body?: string };

const rpcError = (id: JsonRpcId | null, code: number, message: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: `${PROXY_MARK} ${message}` } });

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export async function startStoryboardProxy(opts: StoryboardProxyOptions): Promise<StoryboardProxy> {
  const secretPath = `/${randomBytes(16).toString('hex')}/mcp`;
  const token = randomBytes(32).toString('base64url');
  const maxRequestBytes = opts.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const maxCalls = opts.maxCalls ?? DEFAULT_MAX_CALLS;
  const calls: ProxiedCall[] = [];
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  /** Recent transport failures by request digest: an identical request is answered the same, not forwarded. */
  const recentFailures = new Map<string, { seq: number; at: number; failure: TransportFailure; http?: HttpObservation }>();
  let seq = 0;
  let currentLabel: string | undefined;
  let refuse = opts.refuse;
  let queue: Promise<unknown> = Promise.resolve();
  let queued = 0;
  /** A timed-out call still settling in the agent's session: the next forward waits for it (bounded). */
  let settling: Promise<void> = Promise.resolve();

  const record = (call: ProxiedCall): void => {
    if (calls.length < maxCalls) calls.push(call);
    try {
      opts.onCall?.(call);
    } catch {
      /* a listener's bug is not the agent's failure */
    }
  };

  const authOf = (req: IncomingMessage): ProxyAuth => {
    const header = req.headers.authorization;
    if (header === undefined || header.trim() === '') return { kind: 'none' };
    return header === `Bearer ${token}` ? { kind: 'configured' } : { kind: 'override', authorization: header };
  };

  const advertised = (tool: string): Exchange['advertised'] => {
    const t = opts.tools?.find((x) => own(x, 'name') === tool);
    if (t === undefined) return undefined;
    const inputSchema = own(t, 'inputSchema');
    const outputSchema = own(t, 'outputSchema');
    return { ...(inputSchema !== undefined ? { inputSchema } : {}), ...(outputSchema !== undefined ? { outputSchema } : {}) };
  };

  /** One forwarded request, bounded by our timeout; never throws. */
  const forwardBounded = async (method: string, params: Record<string, unknown> | undefined, auth: ProxyAuth): Promise<ForwardAnswer> => {
    const controller = new AbortController();
    const onClose = () => controller.abort(new Error('the storyboard proxy closed'));
    closing.signal.addEventListener('abort', onClose, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<ForwardAnswer>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error(`no answer within ${opts.callTimeoutMs} ms`));
        resolve({
          kind: 'failure',
          failure: { kind: 'timeout', message: `${method}: no answer within ${opts.callTimeoutMs} ms (the harness's call timeout)` },
        });
      }, opts.callTimeoutMs);
    });
    const work = opts
      .forward({ method, params, auth, signal: controller.signal, timeoutMs: opts.callTimeoutMs })
      .catch((err: unknown): ForwardAnswer => ({
        kind: 'failure',
        failure: { kind: 'network', message: `${method}: the forwarder failed: ${err instanceof Error ? err.message : String(err)}` },
      }));
    try {
      const answer = await Promise.race([work, timedOut]);
      // Answer the runner now; the next call waits until the session has settled this one.
      if (controller.signal.aborted) settling = Promise.race([work, sleep(SETTLE_GRACE_MS)]).then(() => undefined);
      return answer;
    } finally {
      clearTimeout(timer);
      closing.signal.removeEventListener('abort', onClose);
    }
  };

  /** The runner's request, answered: locally (lifecycle), refused, repeated, or forwarded. */
  const handleRequest = async (message: Record<string, unknown>, id: JsonRpcId, auth: ProxyAuth): Promise<Reply> => {
    const method = message['method'] as string;
    const params = isObject(own(message, 'params')) ? (own(message, 'params') as Record<string, unknown>) : undefined;
    if (method === 'initialize') {
      const result = {
        protocolVersion: opts.handshake.protocolVersion || FALLBACK_REVISION,
        capabilities: isObject(opts.handshake.capabilities) ? opts.handshake.capabilities : { tools: {} },
        serverInfo: isObject(opts.handshake.serverInfo) ? opts.handshake.serverInfo : { name: 'adcp-conformance-proxy', version: '0' },
      };
      return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result }) };
    }
    if (method === 'ping') return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result: {} }) };

    const call: ProxiedCall = { seq: seq++, method, auth: auth.kind, ...(currentLabel !== undefined ? { label: currentLabel } : {}) };
    const isToolCall = method === 'tools/call';
    const name = isToolCall && typeof own(params, 'name') === 'string' ? (own(params, 'name') as string) : undefined;
    const args = isObject(own(params, 'arguments')) ? (own(params, 'arguments') as Record<string, unknown>) : {};
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    const exchangeOf = (outcome: ExchangeOutcome, extra: Partial<Exchange> = {}): Exchange => {
      const adv = name !== undefined ? advertised(name) : undefined;
      return {
        agent: opts.agent,
        tool: name ?? String(own(params, 'name')),
        intent: 'valid',
        request: { name: name ?? String(own(params, 'name')), arguments: args },
        outcome,
        ...(opts.handshake.protocolVersion ? { protocolVersion: opts.handshake.protocolVersion } : {}),
        ...(adv !== undefined ? { advertised: adv } : {}),
        startedAt,
        durationMs: Math.round(performance.now() - t0),
        ...extra,
      };
    };

    if (isToolCall) {
      call.tool = name ?? String(own(params, 'name'));
      call.arguments = args;
    }
    const refusal = name !== undefined ? refuse?.(name, args) : undefined;
    if (refusal !== undefined) {
      call.refused = refusal;
      record(call);
      return { status: 200, body: rpcError(id, -32603, `not forwarded: ${refusal}`) };
    }

    const digest = createHash('sha256')
      .update(`${method}\n${auth.kind === 'override' ? auth.authorization : auth.kind}\n${safeStringify(params) ?? ''}`)
      .digest('hex');
    const recent = recentFailures.get(digest);
    const answer: ForwardAnswer =
      recent && Date.now() - recent.at < REPEAT_WINDOW_MS
        ? { kind: 'failure', failure: recent.failure, ...(recent.http ? { http: recent.http } : {}) }
        : await forwardBounded(method, params, auth);
    if (recent && Date.now() - recent.at < REPEAT_WINDOW_MS) call.repeatOf = recent.seq;

    let reply: Reply;
    let outcome: ExchangeOutcome;
    if (answer.kind === 'answer') {
      const result = own(answer.message, 'result');
      const error = own(answer.message, 'error');
      const relayed = Object.hasOwn(answer.message, 'error') ? { jsonrpc: '2.0', id, error } : { jsonrpc: '2.0', id, result };
      const body = safeStringify(relayed);
      if (body === null || Buffer.byteLength(body, 'utf8') > opts.maxResponseBytes) {
        const failure: TransportFailure = {
          kind: 'oversize',
          message: `${method}: the answer passed the ${opts.maxResponseBytes}-byte cap of the storyboard proxy`,
        };
        outcome = { kind: 'transport-error', failure };
        reply = { status: 200, body: rpcError(id, -32603, failure.message) };
      } else {
        outcome = Object.hasOwn(answer.message, 'error') ? { kind: 'jsonrpc-error', error } : { kind: 'result', result };
        reply = { status: 200, body };
      }
    } else {
      const f = answer.failure;
      if (call.repeatOf === undefined)
        recentFailures.set(digest, { seq: call.seq, at: Date.now(), failure: f, ...(answer.http ? { http: answer.http } : {}) });
      outcome = { kind: 'transport-error', failure: f };
      reply = failureReply(id, f, answer.http);
    }
    if (isToolCall) {
      call.exchange = exchangeOf(outcome, {
        ...(answer.http ? { http: answer.http } : {}),
        ...(answer.kind === 'answer' && answer.bytes !== undefined ? { bytes: answer.bytes } : {}),
        ...(answer.stderrDuring !== undefined ? { stderrDuring: answer.stderrDuring } : {}),
      });
    }
    record(call);
    return reply;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname.startsWith('/.well-known/')) {
      const doc = opts.wellKnown ? await opts.wellKnown(url.pathname).catch(() => undefined) : undefined;
      if (!doc) return send(res, { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found\n' });
      return send(res, { status: doc.status, headers: { 'content-type': doc.contentType ?? 'application/json' }, body: doc.body });
    }
    if (url.pathname !== secretPath) return send(res, { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found\n' });
    // No standalone SSE stream and no sessions to delete: the proxy is stateless.
    if (req.method !== 'POST') return send(res, { status: 405, headers: { allow: 'POST' } });
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json')
      return send(res, {
        status: 415,
        headers: { 'content-type': 'application/json' },
        body: rpcError(null, -32600, 'Content-Type must be application/json'),
      });

    const text = await readBody(req, maxRequestBytes);
    if (text === undefined) {
      res.setHeader('connection', 'close');
      return send(res, {
        status: 413,
        headers: { 'content-type': 'application/json' },
        body: rpcError(null, -32600, `request body over ${maxRequestBytes} bytes`),
      });
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return send(res, { status: 400, headers: { 'content-type': 'application/json' }, body: rpcError(null, -32700, 'parse error') });
    }
    if (Array.isArray(message))
      return send(res, {
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: rpcError(null, -32600, 'JSON-RPC batches are not supported'),
      });
    if (!isObject(message) || typeof own(message, 'method') !== 'string') {
      // A response or a notification to nothing we sent: accepted and dropped.
      return send(res, { status: 202 });
    }
    const id = own(message, 'id');
    if (id === undefined) return send(res, { status: 202 }); // notifications (initialized, cancelled) stay here
    if (typeof id !== 'string' && typeof id !== 'number') {
      return send(res, {
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: rpcError(null, -32600, 'id must be a string or a number'),
      });
    }
    if (queued >= MAX_QUEUED)
      return send(res, {
        status: 503,
        headers: { 'content-type': 'application/json' },
        body: rpcError(id, -32603, 'too many requests in flight'),
      });

    // One request at a time: the agent's session carries one call at once.
    queued++;
    const auth = authOf(req);
    const turn = queue.then(() => settling).then(() => handleRequest(message as Record<string, unknown>, id, auth));
    queue = turn.catch(() => undefined);
    let reply: Reply;
    try {
      reply = await turn;
    } catch (err) {
      reply = { status: 500, body: rpcError(id, -32603, `internal error: ${err instanceof Error ? err.message : String(err)}`) };
    } finally {
      queued--;
    }
    send(res, { ...reply, headers: { 'content-type': 'application/json', ...reply.headers } });
  };

  const server = createServer((req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) send(res, { status: 500 });
      else res.destroy();
    });
  });
  server.requestTimeout = opts.callTimeoutMs * (MAX_QUEUED + 1) + 5000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}${secretPath}`,
    token,
    label(label) {
      currentLabel = label;
    },
    refuseWith(rule) {
      refuse = rule;
    },
    calls,
    close: () =>
      (closed ??= (async () => {
        closing.abort(new Error('closed'));
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const s of sockets) s.destroy();
        await Promise.race([done, sleep(1000)]);
      })()),
  };
}

/** The agent gave no answer: relay its HTTP status (401 with WWW-Authenticate, 403 …) or a JSON-RPC error. */
function failureReply(id: JsonRpcId, f: TransportFailure, http: HttpObservation | undefined): Reply {
  const status = f.kind === 'http-status' ? (f.httpStatus ?? http?.status) : undefined;
  if (status !== undefined && status >= 400 && status <= 599) {
    const headers: Record<string, string> = {};
    if (http?.wwwAuthenticate !== undefined) headers['www-authenticate'] = http.wwwAuthenticate;
    return { status, headers, body: rpcError(id, -32603, f.message) };
  }
  return { status: 200, body: rpcError(id, f.kind === 'timeout' ? -32001 : -32603, `the agent gave no answer (${f.kind}): ${f.message}`) };
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(reply.status, reply.headers ?? {});
  res.end(reply.body);
}

/** The request body as text, or undefined past `max` bytes (reading stops there). */
function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      req.resume();
      return resolve(undefined);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        done = true;
        req.pause();
        return resolve(undefined);
      }
      chunks.push(chunk);
    });
    req.once('end', () => {
      if (!done) resolve(Buffer.concat(chunks).toString('utf8'));
      done = true;
    });
    req.once('error', () => {
      if (!done) resolve(undefined);
      done = true;
    });
  });
}
