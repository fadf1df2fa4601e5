// Error extraction — AdCP "Transport error mapping", MCP binding.
//
// Detection order (the spec's "Client Detection Order", MCP rows):
//   1. result.structuredContent.adcp_error   — only when isError is truthy
//   2. JSON-RPC error.data.adcp_error         — errors raised before the tool ran
//   3. first content[] text item whose JSON has adcp_error — only when isError is truthy
//   4. payload errors[0] (flat `errors`, or `payload.errors`) — only when isError is truthy
//   5. none → generic error handling
// A real exchange carries either a result or a JSON-RPC error, so the 1-vs-2 order only shows in a
// (malformed) message that has both; `locateInMessage` takes both to keep the order testable.
// Like the spec's code, the first candidate found decides: if it fails acceptance there is no
// structured error (later paths are not tried). Candidates are "found" when truthy, as `?.adcp_error`.
//
// Choices the spec leaves open, decided here (documented in vectors/error-extraction.json):
// - payload errors[0] is read only on isError results: AdCP 3.1 success payloads may carry advisory
//   errors[], and a success is never an error.
// - the 4096 limit is UTF-8 bytes of JSON.stringify (the check catalog, error.size); the spec's sample counts UTF-16 units.
// - `recovery: null` counts as absent (code table); any other non-enum value is unknown → terminal.
// - unknown code without recovery → terminal (official vectors v1 and 3.0/3.1 page; the 3.2 draft of
//   the page moves this to a bounded `transient`).
import type { ExchangeOutcome } from '../record/exchange.ts';
import { isObject, own, type JsonObject } from '../json.ts';
import { recoveryForCode } from './recovery-table.ts';
import { isRecovery, type Recovery } from './recovery-types.ts';
import { utf8Bytes } from './success.ts';

export type { Recovery } from './recovery-types.ts';
export type ClientAction = 'retry' | 'surface_to_caller' | 'escalate_to_human' | 'generic_error';
export type ErrorSource = 'structuredContent' | 'jsonrpc_error' | 'text_fallback' | 'payload_errors';

export const MAX_CODE_LENGTH = 64;
export const MAX_ERROR_BYTES = 4096;
export const RETRY_AFTER_MIN = 1;
export const RETRY_AFTER_MAX = 3600;

/** JSON-RPC codes AdCP reserves for errors raised before tool dispatch. */
export const RESERVED_JSONRPC_CODES: Record<number, string> = {
  [-32029]: 'RATE_LIMITED',
  [-32028]: 'AUTH_MISSING',
  [-32027]: 'SERVICE_UNAVAILABLE',
};

export interface LocatedError {
  raw: unknown;
  source: ErrorSource;
  /** Relative to the tool result (`/structuredContent/adcp_error`, `/content/0/text`) or, for a
   *  JSON-RPC error, to the JSON-RPC message (`/error/data/adcp_error`). */
  pointer: string;
}

/** A JSON-RPC answer as parts: the `result`, the `error` object, or (malformed) both. */
export interface MessageParts {
  result?: unknown;
  error?: unknown;
}

function parseTextItems(content: unknown): Array<{ index: number; parsed: JsonObject }> {
  if (!Array.isArray(content)) return [];
  const out: Array<{ index: number; parsed: JsonObject }> = [];
  for (let index = 0; index < content.length; index++) {
    const item: unknown = content[index];
    if (!isObject(item) || own(item, 'type') !== 'text') continue;
    const text = own(item, 'text');
    if (typeof text !== 'string' || text === '') continue;
    try {
      const parsed: unknown = JSON.parse(text);
      if (isObject(parsed)) out.push({ index, parsed });
    } catch {
      /* not JSON */
    }
  }
  return out;
}

/** errors[0] of a payload object: flat `errors`, else nested `payload.errors`. */
function firstPayloadError(payload: JsonObject): { raw: unknown; suffix: string } | null {
  const flat = own(payload, 'errors');
  if (Array.isArray(flat) && flat.length > 0) return { raw: flat[0], suffix: '/errors/0' };
  const nested = own(own(payload, 'payload'), 'errors');
  if (Array.isArray(nested) && nested.length > 0) return { raw: nested[0], suffix: '/payload/errors/0' };
  return null;
}

/** The full detection order over a message that may carry a result, an error, or both. */
export function locateInMessage(parts: MessageParts): LocatedError | null {
  const { result, error } = parts;
  const flagged = isObject(result) && Boolean(own(result, 'isError'));
  const sc = flagged ? own(result, 'structuredContent') : undefined;

  // 1. structuredContent.adcp_error (isError only)
  const scError = own(sc, 'adcp_error');
  if (scError) return { raw: scError, source: 'structuredContent', pointer: '/structuredContent/adcp_error' };

  // 2. JSON-RPC error.data.adcp_error
  const rpcError = own(own(error, 'data'), 'adcp_error');
  if (rpcError) return { raw: rpcError, source: 'jsonrpc_error', pointer: '/error/data/adcp_error' };

  if (!flagged) return null; // a success is never an error

  // 3. text fallback (isError only)
  const texts = parseTextItems(own(result, 'content'));
  for (const { index, parsed } of texts) {
    const textError = own(parsed, 'adcp_error');
    if (textError) return { raw: textError, source: 'text_fallback', pointer: `/content/${index}/text` };
  }

  // 4. payload errors[0] (isError only): structuredContent first, then text JSON
  if (isObject(sc)) {
    const first = firstPayloadError(sc);
    if (first) return { raw: first.raw, source: 'payload_errors', pointer: `/structuredContent${first.suffix}` };
  }
  for (const { index, parsed } of texts) {
    const first = firstPayloadError(parsed);
    if (first) return { raw: first.raw, source: 'payload_errors', pointer: `/content/${index}/text` };
  }
  return null;
}

/** Detection in the spec's order, without validating the candidate. */
export function locateAdcpError(outcome: ExchangeOutcome): LocatedError | null {
  switch (outcome.kind) {
    case 'result':
      return locateInMessage({ result: outcome.result });
    case 'jsonrpc-error':
      return locateInMessage({ error: outcome.error });
    default:
      return null;
  }
}

/** The client's acceptance rule: `code` a string of 1–64 chars, serialized error ≤ 4096 UTF-8 bytes. */
export function acceptAdcpError(raw: unknown): { ok: true; error: Record<string, unknown> } | { ok: false; reason: string } {
  if (!isObject(raw)) return { ok: false, reason: `not an object (${raw === null ? 'null' : Array.isArray(raw) ? 'array' : typeof raw})` };
  const code = own(raw, 'code');
  if (typeof code !== 'string')
    return { ok: false, reason: `code is ${code === undefined ? 'absent' : `not a string (${code === null ? 'null' : typeof code})`}` };
  if (code.length === 0) return { ok: false, reason: 'code is empty' };
  if (code.length > MAX_CODE_LENGTH) return { ok: false, reason: `code is ${code.length} chars (max ${MAX_CODE_LENGTH})` };
  let serialized: string;
  try {
    serialized = JSON.stringify(raw);
  } catch (err) {
    return { ok: false, reason: `not serializable (${err instanceof Error ? err.message : String(err)})` };
  }
  const bytes = utf8Bytes(serialized);
  if (bytes > MAX_ERROR_BYTES) return { ok: false, reason: `serialized error is ${bytes} bytes (max ${MAX_ERROR_BYTES})` };
  return { ok: true, error: raw };
}

export function extractFromMessage(parts: MessageParts): { error: Record<string, unknown>; source: ErrorSource; pointer: string } | null {
  const located = locateInMessage(parts);
  if (!located) return null;
  const accepted = acceptAdcpError(located.raw);
  return accepted.ok ? { error: accepted.error, source: located.source, pointer: located.pointer } : null;
}

/** locate + accept. */
export function extractError(outcome: ExchangeOutcome): { error: Record<string, unknown>; source: ErrorSource; pointer: string } | null {
  switch (outcome.kind) {
    case 'result':
      return extractFromMessage({ result: outcome.result });
    case 'jsonrpc-error':
      return extractFromMessage({ error: outcome.error });
    default:
      return null;
  }
}

/** Explicit valid recovery wins; absent (or null) → table by code; unknown value or unknown code → terminal. */
export function effectiveRecovery(error: Record<string, unknown>): Recovery {
  const recovery = own(error, 'recovery');
  if (recovery === undefined || recovery === null) {
    const code = own(error, 'code');
    return (typeof code === 'string' ? recoveryForCode(code) : undefined) ?? 'terminal';
  }
  return isRecovery(recovery) ? recovery : 'terminal';
}

export function clientAction(extracted: Record<string, unknown> | null): ClientAction {
  if (!extracted) return 'generic_error';
  switch (effectiveRecovery(extracted)) {
    case 'transient':
      return 'retry';
    case 'correctable':
      return 'surface_to_caller';
    case 'terminal':
      return 'escalate_to_human';
  }
}

/** retry_after as a client uses it: ceil, then clamp to 1–3600; absent / non-finite / non-number → undefined. */
export function clientRetryAfter(error: Record<string, unknown>): number | undefined {
  const raw = own(error, 'retry_after');
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return undefined;
  return Math.min(RETRY_AFTER_MAX, Math.max(RETRY_AFTER_MIN, Math.ceil(raw)));
}
