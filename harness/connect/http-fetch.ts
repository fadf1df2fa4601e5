// The `fetch` the SDK's StreamableHTTPClientTransport uses: undici's dispatcher with an Agent of its own
// (connect / headers / body timeouts, keep-alive), redirects never followed, content codings undone as
// fetch does (connect/content-coding.ts), and every response body read through a byte counter that stops
// at `maxBytes` — JSON and SSE alike — and aborts the pending call's signal (with SSE, a stream error alone
// only reaches transport.onerror). It also records one HttpObservation per response and taps the raw
// JSON-RPC messages. undici's `request`, not its WHATWG `fetch`: fetch's Request, Headers and web streams
// were most of the harness's CPU per HTTP call (bench/README.md), and a JSON answer is parsed once, by the
// gate below, and handed to the SDK as that value.
import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { HttpObservation } from '../record/exchange.ts';
import { HARNESS_VERSION } from '../version.ts';
import { type CallTracker, rpcInfo } from './call-tracker.ts';
import { ACCEPT_ENCODING, decodedBody } from './content-coding.ts';
import { classify, failure, oneLine, OversizeError } from './failure.ts';
import { SseTap } from './sse-tap.ts';

export interface CappedFetchOptions {
  maxBytes: number;
  connectMs: number;
  callMs: number;
  tracker: CallTracker;
  secrets: readonly string[];
  /** Called with each observation (the caller bounds how many it keeps). */
  observe: (o: HttpObservation) => void;
}

export interface CappedFetch {
  fetch: FetchLike;
  /** Tear down the Agent's sockets (in-flight bodies are destroyed). */
  close(): Promise<void>;
}

/** How much of a non-2xx body is read for the failure message and the observation. */
const ERROR_SNIPPET_BYTES = 4096;
/** Characters of a non-2xx body (and of a WWW-Authenticate header) kept in messages and observations. */
const EXCERPT_CHARS = 200;
/**
 * Sockets per agent origin. The call's own stream holds one; our answers to server-to-client requests
 * (pings …) queue on the others instead of opening one connection each.
 */
export const MAX_CONNECTIONS_PER_ORIGIN = 4;
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const USER_AGENT = `adcp-conformance/${HARNESS_VERSION}`;

// undici's Agent and its request(), required on their own: undici's index loads all of undici (fetch,
// WebSocket, caches, mocks), ~0.2 CPU-s on every HTTP run against ~0.06 for these two (bench/README.md).
const requireHere = createRequire(import.meta.url);
const Agent = requireHere('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
const request = requireHere('undici/lib/api/api-request.js') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function createCappedFetch(opts: CappedFetchOptions): CappedFetch {
  const { maxBytes, tracker, secrets } = opts;
  // The call and connect timers (on the seller's clock: harness/connect/seller-clock.ts) abort a request's
  // wire first. undici's own timers run on the wall clock — a stall of the harness would fire them before
  // the answer that arrived meanwhile is read — so they are only a distant backstop for a stalled socket.
  const slack = 3 * Math.max(opts.callMs, opts.connectMs) + 10_000;
  const dispatcher = new Agent({
    connect: { timeout: slack },
    headersTimeout: slack,
    bodyTimeout: slack,
    // An idle socket is dropped after 1 s, whatever the seller's Keep-Alive hint: a seller on Node closes
    // its side after 5 s, and a request sent on a socket the seller is closing dies with "other side
    // closed" — a healthy seller called broken whenever the harness paused (or stalled) in between.
    keepAliveTimeout: 1_000,
    keepAliveMaxTimeout: 1_000,
    connections: MAX_CONNECTIONS_PER_ORIGIN,
  });

  const capped: FetchLike = async (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    // The optional standalone GET stream (server-initiated messages) is never opened: the harness
    // only needs answers to its own requests, and every open stream is one more unbounded resource.
    if (method === 'GET') return new Response(null, { status: 405, statusText: 'Method Not Allowed (not opened by the harness)' });

    const body = typeof init?.body === 'string' ? init.body : undefined;
    let info: ReturnType<typeof rpcInfo>;
    try {
      info = body ? rpcInfo(JSON.parse(body)) : {};
    } catch {
      info = {};
    }
    // Only a REQUEST carries the call: our answer to a server-initiated request (ping, sampling …) has
    // no method and an id the seller chose, possibly equal to the call's own.
    const call = info.method !== undefined ? tracker.isPending(info.id) : undefined;
    // The handshake's closing notification belongs to initialize's budget: a seller that never answers
    // its POST must not hold connect() open past the connect timeout.
    // Our answer to a server-to-client request belongs to the call in flight: it ends with the call.
    const handshake = info.method === 'notifications/initialized' && tracker.current?.method === 'initialize';
    const answer = info.method === undefined && info.id !== undefined;
    const owner = call ?? (handshake || answer ? tracker.current : undefined);
    // A request a call owns ends with the call's wire (its timer is on the seller's clock). The SDK's own
    // signal adds nothing to it (the SDK aborts it only when the transport closes, and closing destroys every
    // socket right after), and a single signal spares an AbortSignal.any per request, which on Node 20 costs
    // more than the request's own bookkeeping and makes every call's end propagate to it. Any other request
    // ends with the SDK's signal or the backstop.
    // A network error propagates to the SDK request and is classified from its rejection.
    const signal = owner
      ? owner.wire.signal
      : AbortSignal.any([init?.signal, AbortSignal.timeout(slack)].filter((s): s is AbortSignal => !!s));
    const target = typeof url === 'string' ? new URL(url) : url;
    // What fetch refuses to send (and the SDK relies on it): a URL's userinfo never becomes a request.
    if (target.username || target.password) throw new TypeError('Request cannot be constructed from a URL that includes credentials');
    const headers = headerObject(init?.headers);
    // What fetch added: the codings it undoes (as content-coding.ts does now), and who is asking.
    headers['accept-encoding'] ??= ACCEPT_ENCODING;
    headers['user-agent'] ??= USER_AGENT;
    const send = (via: UndiciAgent = dispatcher) =>
      request.call(via, {
        origin: target.origin,
        path: target.pathname + target.search,
        method: method as 'POST',
        headers,
        body: body ?? null,
        signal,
      });
    let reply: Awaited<ReturnType<typeof send>>;
    try {
      reply = await send();
    } catch (err) {
      // Sent on a kept-alive socket the seller closed while it sat idle, the request dies unread: sent
      // once more, on a fresh connection, as HTTP clients do. A seller that closes a fresh connection
      // without answering still fails (the retry meets the same close).
      if (!closedWhileIdle(err) || signal.aborted) throw err;
      // A connection of its own (the pool's other idle sockets may be just as stale), closed once answered.
      const fresh = new Agent({ connect: { timeout: slack }, headersTimeout: slack, bodyTimeout: slack, connections: 1 });
      try {
        reply = await send(fresh);
      } finally {
        void fresh.close().catch(() => {});
      }
    }
    // The seller's status and headers, as the SDK is handed them with every Response built below.
    const response = { status: reply.statusCode, headers: new Headers(headerPairs(reply.headers)) };
    const source = decodedBody(reply.body, reply.statusCode, reply.headers['content-encoding']);

    const contentType = response.headers.get('content-type');
    const sessionId = response.headers.get('mcp-session-id');
    const observation: HttpObservation = {
      method: info.method ?? method,
      status: response.status,
      contentType,
      ...(sessionId !== null ? { sessionId } : {}),
    };
    opts.observe(observation);
    if (call) call.http = observation;

    const type = mediaType(contentType);

    if (response.status < 200 || response.status > 299) {
      const snippet = await readUpTo(source, Math.min(ERROR_SNIPPET_BYTES, maxBytes));
      // What the seller said, so a 401/404/5xx reads as itself (bounded, one line, redacted).
      const excerpt = snippet.trim() ? oneLine(snippet, secrets, EXCERPT_CHARS) : undefined;
      const challenge = response.status === 401 ? response.headers.get('www-authenticate') : null;
      const wwwAuthenticate = challenge !== null ? oneLine(challenge, secrets, EXCERPT_CHARS) : undefined;
      if (excerpt !== undefined) observation.bodyExcerpt = excerpt;
      if (wwwAuthenticate !== undefined) observation.wwwAuthenticate = wwwAuthenticate;
      if (call) {
        const shown = [
          wwwAuthenticate !== undefined
            ? `WWW-Authenticate: ${wwwAuthenticate}`
            : response.status === 401
              ? 'no WWW-Authenticate header'
              : '',
          excerpt !== undefined ? `body: ${excerpt}` : '',
        ].filter(Boolean);
        const what = `${call.method} got HTTP ${response.status} (${contentType ?? 'no content type'})`;
        tracker.fail(
          failure('http-status', shown.length ? `${what}; ${shown.join('; ')}` : what, secrets, {
            httpStatus: response.status,
            contentType,
          }),
          call,
        );
      }
      return new Response(NULL_BODY_STATUSES.has(response.status) ? null : snippet, response);
    }
    if (NULL_BODY_STATUSES.has(response.status) || response.status === 202) {
      // Read to its end (a small body) so the socket is kept alive, or dropped past undici's dump limit.
      if (source === reply.body) await reply.body.dump().catch(() => {});
      else source.destroy();
      return new Response(null, response);
    }
    if (type === 'application/json') {
      const text = await readCapped(
        source,
        maxBytes,
        (seen) => onOversize(call, seen),
        () => tracker.invalidUtf8('a JSON body'),
      );
      // The SDK reads only what the gate admitted ([] when it withheld everything: a batch, a wrong id),
      // as the value the gate parsed; text the gate cannot parse goes to the SDK, which reports it.
      const gated = gateJson(text, tracker);
      if (gated === undefined) return new Response(text, response);
      return new ParsedJsonResponse(gated.admitted ? gated.value : [], response);
    }
    if (type === 'text/event-stream') {
      const tap = new SseTap(
        (data) => gateData(data, tracker),
        () => tracker.invalidUtf8('an SSE stream'),
      );
      const encoder = new TextEncoder();
      const stream = cappedStream(source, maxBytes, {
        chunk: (c) => encoder.encode(tap.push(c)),
        done: () => onStreamEnd(call, tap.end()),
        oversize: (seen) => onOversize(call, seen),
        // The stream broke mid-answer (not by our own abort at the call's end): the call is over now.
        broken: (err) => {
          if (call && !call.wire.signal.aborted) tracker.fail(classify(err, secrets), call);
        },
      });
      return new Response(stream, response);
    }
    // 2xx but neither JSON nor SSE (an HTML page, text/plain …): not an MCP answer.
    const snippet = await readUpTo(source, Math.min(ERROR_SNIPPET_BYTES, maxBytes));
    if (call) {
      tracker.fail(
        failure(
          'http-status',
          `HTTP ${response.status} with content type ${contentType ?? '(none)'}: ${oneLine(snippet, secrets, 160)}`,
          secrets,
          {
            httpStatus: response.status,
            contentType,
          },
        ),
        call,
      );
    }
    return new Response(null, response);
  };

  /**
   * The call's SSE stream ended. Without its answer the call fails now, not at its timeout: the SDK
   * would wait (it cannot resume a stream: the harness opens no GET stream). An event left open at the
   * end is never an answer (the SDK's client discards it too). After the answer the stream is released,
   * so what follows it is not read.
   */
  function onStreamEnd(call: ReturnType<CallTracker['isPending']>, open: string | undefined): void {
    if (!call || call.raw) return;
    const message =
      open !== undefined
        ? `${call.method}: the final SSE event was never terminated by a blank line (the stream ended inside it), so it is not an answer`
        : `${call.method}: the SSE stream ended without an answer`;
    tracker.fail(failure(open !== undefined ? 'protocol' : 'closed', message, secrets), call);
  }

  /** Only the tracked call's own response can fail it (a stray body of a notification cannot). */
  function onOversize(call: ReturnType<CallTracker['isPending']>, seen: number): void {
    if (!call) return;
    const err = new OversizeError(seen, maxBytes);
    tracker.fail(failure('oversize', err.message, secrets, { bytesSeen: seen }), call);
  }

  return {
    fetch: capped,
    close: async () => {
      await dispatcher.destroy().catch(() => {});
    },
  };
}

/**
 * A JSON body parsed, and whether the SDK may read it (the tracker records its answer or the rule it
 * breaks); undefined when it is not JSON.
 */
function gateJson(text: string, tracker: CallTracker): { value: unknown; admitted: boolean } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return { value, admitted: tracker.admit(value, Buffer.byteLength(text), text) };
}

/** A JSON answer as the SDK reads it (`json()`), holding the value already parsed: no second parse, no stream. */
class ParsedJsonResponse extends Response {
  constructor(
    private readonly value: unknown,
    init: ResponseInit,
  ) {
    super(null, init);
  }

  override json(): Promise<unknown> {
    return Promise.resolve(this.value);
  }
}

/** The SDK's request headers (a Headers, an array of pairs or a record) as undici's record. */
function headerObject(init: HeadersInit | undefined): Record<string, string> {
  return Object.fromEntries(init instanceof Headers ? init : new Headers(init));
}

/** undici's response headers (a value per name, or several) as the pairs a Headers is built from. */
function headerPairs(headers: Record<string, string | string[] | undefined>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const v of value) pairs.push([name, v]);
    else if (value !== undefined) pairs.push([name, value]);
  }
  return pairs;
}

/** Whether the SDK may see one SSE message event's data. */
function gateData(data: string, tracker: CallTracker): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return true; // not JSON: the SDK reports it
  }
  return tracker.admit(parsed, Buffer.byteLength(data), data);
}

/** Read a whole body, failing with OversizeError (and dropping the socket) past `maxBytes`. */
async function readCapped(source: Readable, maxBytes: number, oversize: (seen: number) => void, notUtf8: () => void): Promise<string> {
  const chunks: Buffer[] = [];
  let seen = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    seen += chunk.byteLength;
    if (seen > maxBytes) {
      source.destroy();
      oversize(seen);
      throw new OversizeError(seen, maxBytes);
    }
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  if (!isUtf8(body)) notUtf8();
  return body.toString('utf8');
}

/** The first `limit` bytes of a body as text; the rest is discarded and the socket dropped. */
async function readUpTo(source: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let seen = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      seen += chunk.byteLength;
      if (seen >= limit) break; // leaving the loop destroys the stream
    }
  } catch {
    /* a broken error body still yields the status */
  } finally {
    source.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/**
 * A pull-driven web stream of `source` (the SDK reads an SSE answer as one), through `chunk` (which
 * returns what the reader may see), that errors past `maxBytes` (no read-ahead: memory stays one chunk).
 */
export function cappedStream(
  source: Readable,
  maxBytes: number,
  hooks: { chunk(c: Uint8Array): Uint8Array; done(): void; oversize(seen: number): void; broken?(err: unknown): void },
): ReadableStream<Uint8Array> {
  const chunks = (source as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let seen = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const { done, value } = await chunks.next();
            if (done) {
              hooks.done();
              controller.close();
              return;
            }
            seen += value.byteLength;
            if (seen > maxBytes) {
              source.destroy();
              hooks.oversize(seen);
              controller.error(new OversizeError(seen, maxBytes));
              return;
            }
            const out = hooks.chunk(value);
            if (out.byteLength > 0) return controller.enqueue(out);
          }
        } catch (err) {
          hooks.broken?.(err);
          controller.error(err);
        }
      },
      cancel() {
        source.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * undici's "other side closed" on a socket that had already carried an answer: the seller closed a
 * kept-alive connection (its keep-alive timeout) just as the harness reused it, before any byte of this
 * answer. (A socket that never carried one is the seller closing on the request itself: not retried.)
 */
function closedWhileIdle(err: unknown): boolean {
  const e = err as { code?: unknown; socket?: { bytesRead?: unknown } } | undefined;
  const read = e?.socket?.bytesRead;
  return e?.code === 'UND_ERR_SOCKET' && typeof read === 'number' && read > 0;
}
