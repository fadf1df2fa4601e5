// The JSON-RPC requests in flight (the harness calls one at a time, except a scenario that sends a few
// at once on purpose) and everything the wire told us about each: its id, the RAW answer as parsed from
// the bytes (before the SDK's zod schemas copy or reject it), HTTP facts, and a failure seen below the
// SDK (byte cap, HTTP status, process exit). A failure aborts the call's own AbortSignal so the SDK's
// request settles at once.
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHash } from 'node:crypto';
import type { HttpObservation, ProtocolViolation, ProtocolViolationKind, TransportFailure } from '../record/exchange.ts';
import { isObject } from '../json.ts';
import { oneLine } from './failure.ts';

export interface PendingCall {
  method: string;
  /** What the call is, for a violation's `at` (e.g. `tools/call get_products`). */
  label: string;
  /** The SDK request's signal: aborting it settles the request (and sends notifications/cancelled). */
  controller: AbortController;
  /** The wire's signal (the HTTP fetch): aborted on failure and when the call ends, releasing the stream. */
  wire: AbortController;
  id?: string | number;
  /**
   * The raw JSON-RPC response with our id, exactly as parsed from the wire, and the text it was parsed
   * from when the transport had it (every live transport does).
   */
  raw?: { message: Record<string, unknown>; bytes?: number; text?: string };
  failure?: TransportFailure;
  http?: HttpObservation;
}

export type RpcInfo = { method?: string; id?: string | number };

/** Method and id of an outgoing JSON-RPC message (first of a batch). */
export function rpcInfo(message: unknown): RpcInfo {
  const first = Array.isArray(message) ? message[0] : message;
  if (!first || typeof first !== 'object') return {};
  const m = (first as { method?: unknown }).method;
  const id = (first as { id?: unknown }).id;
  return {
    ...(typeof m === 'string' ? { method: m } : {}),
    ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}),
  };
}

/** Violations kept per agent; past this only a count grows (a flood cannot grow the capture). */
export const MAX_PROTOCOL_VIOLATIONS = 50;
/** Server-to-client requests answered per call (pings included); past it they are dropped unanswered. */
export const MAX_SERVER_REQUESTS_PER_CALL = 64;
/** Request ids remembered (ours, to judge answers by); far above what one conformance session sends. */
const MAX_SENT_IDS = 10_000;
/** Requests of capabilities a client must declare; this client declares none. */
const UNDECLARED_CAPABILITY = /^(sampling|elicitation|roots)\//;

type SentRequest = { method: string; answered?: string };

/** A JSON-RPC id as a map key that keeps its type: the string "3" and the number 3 are different ids. */
const idKey = (id: string | number): string => `${typeof id}:${id}`;
const sameIdLoosely = (a: unknown, b: string | number): boolean =>
  (typeof a === 'string' || typeof a === 'number') && String(a) === String(b);
const showId = (id: unknown): string => (typeof id === 'string' ? JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id) : String(id));

/** The reason a settled call's wire is aborted with: one Error for all (each new one captured a stack, per call). */
const SETTLED = new Error('call settled');

export class CallTracker {
  /** Calls begun and not yet ended, oldest first (more than one only while a scenario sends calls at once). */
  private readonly inFlight: PendingCall[] = [];
  /** JSON-RPC rule breaks seen on the wire (bounded); none of them ever satisfied a call. */
  readonly violations: ProtocolViolation[] = [];
  violationsOmitted = 0;
  private readonly sent = new Map<string, SentRequest>();
  /** Server-to-client requests seen since the current call began (or the last call ended). */
  private serverRequests = 0;
  private floodNoted = false;

  /**
   * `--verbose`: every JSON-RPC message, outgoing as handed to the transport, incoming as parsed off the
   * wire (before the admission below and before the SDK). Observes only; never changes what is admitted.
   */
  onWire?: (e: { direction: 'out' | 'in'; message: unknown; text?: string }) => void;

  constructor(private readonly secrets: readonly string[]) {}

  /** A new MCP session (a connect retry): the SDK numbers its requests from 0 again. */
  newSession(): void {
    this.sent.clear();
  }

  /** The call begun last of those in flight: the one a failure without a request id belongs to. */
  get current(): PendingCall | undefined {
    return this.inFlight.at(-1);
  }

  /** Every call in flight, oldest first (a process exit or a cut fails them all). */
  pending(): readonly PendingCall[] {
    return [...this.inFlight];
  }

  begin(method: string, label: string = method): PendingCall {
    const call: PendingCall = { method, label, controller: new AbortController(), wire: new AbortController() };
    // Server-to-client requests are counted per call; calls sent together share one count.
    if (this.inFlight.length === 0) {
      this.serverRequests = 0;
      this.floodNoted = false;
    }
    this.inFlight.push(call);
    return call;
  }

  end(call: PendingCall): void {
    if (!call.wire.signal.aborted) call.wire.abort(SETTLED);
    const i = this.inFlight.indexOf(call);
    if (i >= 0) this.inFlight.splice(i, 1);
  }

  /** Record a rule break (bounded). `at` is the call in flight, when there is one. */
  violation(kind: ProtocolViolationKind, message: string, at: string | undefined = this.current?.label): void {
    if (this.violations.length >= MAX_PROTOCOL_VIOLATIONS) {
      this.violationsOmitted++;
      return;
    }
    this.violations.push({ kind, message: oneLine(message, this.secrets), ...(at !== undefined ? { at } : {}) });
  }

  /** A message arrived whose bytes are not UTF-8 (`where`: stdout line, JSON body, SSE stream); recorded once per call. */
  invalidUtf8(where: string): void {
    const at = this.current?.label;
    if (this.violations.some((v) => v.kind === 'invalid-utf8' && v.at === at)) return;
    this.violation('invalid-utf8', `a message (${where}) was not valid UTF-8; its bad bytes were read as U+FFFD`);
  }

  /**
   * An outgoing message: remembers our request ids; a request gives its id to the oldest pending call of
   * its method still without one (calls sent together are begun and sent in the same order).
   */
  noteOutgoing(message: unknown): void {
    this.onWire?.({ direction: 'out', message });
    for (const m of Array.isArray(message) ? message : [message]) {
      const info = rpcInfo(m);
      if (info.method === undefined || info.id === undefined) continue;
      if (this.sent.size >= MAX_SENT_IDS) this.sent.delete(this.sent.keys().next().value!);
      this.sent.set(idKey(info.id), { method: info.method });
    }
    const info = rpcInfo(message);
    if (info.id === undefined) return;
    const call = this.inFlight.find((c) => c.id === undefined && c.method === info.method);
    if (call) call.id = info.id;
  }

  /** The pending call an outgoing request id belongs to (its HTTP fetch is tied to the call's signal). */
  isPending(id: string | number | undefined): PendingCall | undefined {
    return id === undefined ? undefined : this.inFlight.find((c) => c.id === id);
  }

  /**
   * A JSON value read off the wire (one stdio line, one SSE data field, one JSON body), BEFORE the SDK
   * sees it. Returns whether the SDK may see it: answers that break JSON-RPC (a batch, an id of the wrong
   * type, an id we never sent, a second answer) are recorded and withheld, since the SDK would match a
   * string "3" to our 3 (it looks ids up with Number()) and accept a batch. Also records the raw answer
   * of the pending call. `text` is the message as it came off the wire (to tell a repeated answer from a
   * different one without serializing it again).
   */
  admit(raw: unknown, bytes: number | undefined, text?: string): boolean {
    this.onWire?.({ direction: 'in', message: raw, ...(text !== undefined ? { text } : {}) });
    if (Array.isArray(raw)) return this.batch(raw);
    if (!isObject(raw)) return true; // not a JSON-RPC message: the transport reports it
    const method = raw['method'];
    if (typeof method === 'string') return Object.hasOwn(raw, 'id') ? this.serverRequest(method) : true;
    if (!Object.hasOwn(raw, 'result') && !Object.hasOwn(raw, 'error')) return true;
    return this.response(raw, bytes, text);
  }

  private batch(items: unknown[]): boolean {
    const answered = this.inFlight.filter(
      (c) => c.id !== undefined && items.some((m) => isObject(m) && !Object.hasOwn(m, 'method') && sameIdLoosely(m['id'], c.id!)),
    );
    this.violation(
      'batch',
      `a JSON array (batch) of ${items.length} message(s) arrived; the harness never sends a batch, and MCP removed batching in 2025-06-18`,
    );
    for (const call of answered) {
      this.fail(
        {
          kind: 'protocol',
          message: oneLine(`${call.method} was answered inside a JSON-RPC batch array, not as a single response`, this.secrets),
        },
        call,
      );
    }
    return false;
  }

  private serverRequest(method: string): boolean {
    if (++this.serverRequests > MAX_SERVER_REQUESTS_PER_CALL) {
      if (!this.floodNoted) {
        this.floodNoted = true;
        const what = `more than ${MAX_SERVER_REQUESTS_PER_CALL} server-to-client requests during one call`;
        this.violation('server-request-flood', `${what}; the rest were dropped unanswered`);
      }
      return false;
    }
    if (UNDECLARED_CAPABILITY.test(method)) {
      const what = `the server sent a ${method} request, a capability the client never declared`;
      this.violation('undeclared-capability', `${what}; answered with JSON-RPC error -32601`);
    }
    return true; // the SDK answers it (a ping with {}, anything without a handler with -32601)
  }

  private response(message: Record<string, unknown>, bytes: number | undefined, text: string | undefined): boolean {
    const id = message['id'];
    if (id === null || id === undefined) return true; // an error about a request the server could not read: the SDK reports it
    if (typeof id !== 'string' && typeof id !== 'number') {
      this.violation(
        'unknown-id',
        `an answer with id of type ${Array.isArray(id) ? 'array' : typeof id}: JSON-RPC ids are strings or numbers`,
      );
      return false;
    }
    const sent = this.sent.get(idKey(id));
    if (!sent) {
      // The same id in the other JSON type ("3" for 3): the SDK would take it for ours.
      const other = typeof id === 'number' ? String(id) : id.trim() !== '' && Number.isFinite(Number(id)) ? Number(id) : undefined;
      const ours = other === undefined ? undefined : this.sent.get(idKey(other));
      if (ours && other !== undefined) {
        const answer = `an answer with id ${showId(id)} (${typeof id})`;
        this.violation(
          'id-type-mismatch',
          `${answer} to our ${ours.method} request id ${showId(other)} (${typeof other}): ids must match exactly`,
        );
        const call = this.isPending(other);
        if (call) {
          this.fail(
            {
              kind: 'protocol',
              message: oneLine(`${call.method} was answered with id ${showId(id)}, not our id ${showId(other)}`, this.secrets),
            },
            call,
          );
        }
      } else {
        this.violation('unknown-id', `an answer to id ${showId(id)}, which the harness never sent`);
      }
      return false;
    }
    const digest = createHash('sha256')
      .update(text ?? JSON.stringify(message))
      .digest('hex');
    if (sent.answered !== undefined) {
      const same = sent.answered === digest ? 'identical' : 'different';
      this.violation(
        'duplicate-response',
        `a second (${same}) answer to our ${sent.method} request id ${showId(id)}; only the first counts`,
      );
      return false;
    }
    sent.answered = digest;
    this.noteAnswer(message, id, bytes, text);
    return true;
  }

  /** A pending call's own answer, exactly as parsed from the wire (malformed → a protocol failure now). */
  private noteAnswer(message: Record<string, unknown>, id: string | number, bytes: number | undefined, text: string | undefined): void {
    const call = this.isPending(id);
    if (!call || call.raw) return;
    const parsed = JSONRPCMessageSchema.safeParse(message);
    if (!parsed.success) {
      this.fail(
        {
          kind: 'protocol',
          message: oneLine(`malformed JSON-RPC response to ${call.method}: ${whyMalformed(message)}`, this.secrets),
          ...(bytes !== undefined ? { bytesSeen: bytes } : {}),
        },
        call,
      );
      return;
    }
    call.raw = { message, ...(bytes !== undefined ? { bytes } : {}), ...(text !== undefined ? { text } : {}) };
  }

  /** First failure wins; the call's signal is aborted so the SDK request settles now. */
  fail(failure: TransportFailure, call: PendingCall | undefined = this.current): void {
    if (!call || call.raw) return;
    call.failure ??= failure;
    if (!call.controller.signal.aborted) call.controller.abort(new Error(failure.message));
    if (!call.wire.signal.aborted) call.wire.abort(new Error(failure.message));
  }
}

/** Why a response with our id fails the JSON-RPC 2.0 response shape, in words. */
function whyMalformed(m: Record<string, unknown>): string {
  if (m['jsonrpc'] !== '2.0') return '`jsonrpc` is not "2.0"';
  const hasResult = Object.hasOwn(m, 'result');
  const hasError = Object.hasOwn(m, 'error');
  if (hasResult && hasError) return 'both `result` and `error` are present';
  if (hasResult) {
    const r = m['result'];
    if (r === null || typeof r !== 'object' || Array.isArray(r))
      return `\`result\` is ${Array.isArray(r) ? 'an array' : r === null ? 'null' : `a ${typeof r}`}, not an object`;
    const meta = (r as Record<string, unknown>)['_meta'];
    if (Object.hasOwn(r, '_meta') && (meta === null || typeof meta !== 'object' || Array.isArray(meta)))
      return '`result._meta` is not an object';
  }
  if (hasError) {
    const e = m['error'];
    const ok =
      e !== null &&
      typeof e === 'object' &&
      Number.isInteger((e as Record<string, unknown>)['code']) &&
      typeof (e as Record<string, unknown>)['message'] === 'string';
    if (!ok) return '`error` needs an integer `code` and a string `message`';
  }
  const extra = Object.keys(m).filter((k) => !['jsonrpc', 'id', 'result', 'error'].includes(k));
  return extra.length ? `unexpected top-level key(s) ${extra.slice(0, 5).join(', ')}` : 'does not match the JSON-RPC 2.0 response shape';
}
