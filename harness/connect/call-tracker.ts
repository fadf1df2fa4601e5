// The one JSON-RPC request in flight (the harness calls sequentially) and everything the wire told us
// about it: its id, the RAW answer as parsed from the bytes (before the SDK's zod schemas copy or
// reject it), HTTP facts, and a failure seen below the SDK (byte cap, HTTP status, process exit).
// A failure aborts the call's own AbortSignal so the SDK's request settles at once.
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HttpObservation, TransportFailure } from '../capture/exchange.ts';
import { oneLine } from './failure.ts';

export interface PendingCall {
  method: string;
  /** The SDK request's signal: aborting it settles the request (and sends notifications/cancelled). */
  controller: AbortController;
  /** The wire's signal (the HTTP fetch): aborted on failure and when the call ends, releasing the stream. */
  wire: AbortController;
  id?: string | number;
  /** The raw JSON-RPC response with our id, exactly as parsed from the wire. */
  raw?: { message: Record<string, unknown>; bytes?: number };
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

export class CallTracker {
  current: PendingCall | undefined;

  constructor(private readonly secrets: readonly string[]) {}

  begin(method: string): PendingCall {
    this.current = { method, controller: new AbortController(), wire: new AbortController() };
    return this.current;
  }

  end(call: PendingCall): void {
    if (!call.wire.signal.aborted) call.wire.abort(new Error('call settled'));
    if (this.current === call) this.current = undefined;
  }

  /** An outgoing message: the first request carrying the pending method gives the call its id. */
  noteOutgoing(message: unknown): void {
    const call = this.current;
    if (!call || call.id !== undefined) return;
    const info = rpcInfo(message);
    if (info.method === call.method && info.id !== undefined) call.id = info.id;
  }

  /** Whether an outgoing request id belongs to the pending call (its HTTP fetch is tied to the call's signal). */
  isPending(id: string | number | undefined): PendingCall | undefined {
    const call = this.current;
    return call && id !== undefined && call.id === id ? call : undefined;
  }

  /** A JSON value read off the wire (one stdio line, one SSE data field, one JSON body element). */
  noteIncoming(raw: unknown, bytes: number | undefined): void {
    const call = this.current;
    if (!call || call.id === undefined || call.raw || !raw || typeof raw !== 'object' || Array.isArray(raw)) return;
    const message = raw as Record<string, unknown>;
    if (message['id'] !== call.id || !(Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error'))) return;
    const parsed = JSONRPCMessageSchema.safeParse(message);
    if (!parsed.success) {
      this.fail({
        kind: 'protocol',
        message: oneLine(`malformed JSON-RPC response to ${call.method}: ${whyMalformed(message)}`, this.secrets),
        ...(bytes !== undefined ? { bytesSeen: bytes } : {}),
      });
      return;
    }
    call.raw = bytes === undefined ? { message } : { message, bytes };
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
    if (r === null || typeof r !== 'object' || Array.isArray(r)) return `\`result\` is ${Array.isArray(r) ? 'an array' : r === null ? 'null' : `a ${typeof r}`}, not an object`;
    const meta = (r as Record<string, unknown>)['_meta'];
    if (Object.hasOwn(r, '_meta') && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) return '`result._meta` is not an object';
  }
  if (hasError) {
    const e = m['error'];
    const ok = e !== null && typeof e === 'object' && Number.isInteger((e as Record<string, unknown>)['code']) && typeof (e as Record<string, unknown>)['message'] === 'string';
    if (!ok) return '`error` needs an integer `code` and a string `message`';
  }
  const extra = Object.keys(m).filter((k) => !['jsonrpc', 'id', 'result', 'error'].includes(k));
  return extra.length ? `unexpected top-level key(s) ${extra.slice(0, 5).join(', ')}` : 'does not match the JSON-RPC 2.0 response shape';
}
