// MCP tool results the AdCP way. Success: flat payload in structuredContent with `status`, the release
// served (`adcp_version`) and the caller's `context` echoed, plus one text item (the JSON mirror or a
// summary, per tool). Error: `isError:true`, structuredContent `{adcp_error, adcp_version?, context?}` and
// `{"adcp_error":…}` as content[0].text. A request without `context` gets none back: the seller never
// makes one up (context-sessions.mdx, "No synthesis").
import type { AdcpErrorBody } from './adcp-error.ts';
import type { JsonObject } from './json.ts';
import type { OutputShape } from './output-schemas.ts';
import type { ToolSpec } from './tools.ts';

export interface TextContent {
  type: 'text';
  text: string;
}

export interface ToolResult {
  content: unknown[];
  structuredContent?: unknown;
  isError?: unknown;
}

/**
 * The flat AdCP payload: task status first, then the body, then the release served (versioning.mdx:
 * "Server echoes: `adcp_version` on every response … the release served") and the echoed context.
 */
export function payloadOf(body: JsonObject, context: JsonObject | undefined, release?: string): JsonObject {
  const payload: JsonObject = { status: 'completed' };
  for (const [k, v] of Object.entries(body)) payload[k] = v;
  if (release !== undefined) payload['adcp_version'] = release;
  if (context !== undefined) payload['context'] = context;
  return payload;
}

export interface SuccessOptions {
  shape: OutputShape;
  /** Overrides the tool's text mode (faults that must stay under the byte cap use `summary`). */
  text?: 'mirror' | 'summary';
}

export function successResult(spec: ToolSpec, payload: JsonObject, opts: SuccessOptions): ToolResult {
  const mode = opts.text ?? spec.text;
  const text = mode === 'mirror' ? JSON.stringify(payload) : spec.summarize(payload);
  const structured = opts.shape === 'legacy' && spec.metaId ? { result: payload } : payload;
  return { content: [{ type: 'text', text } satisfies TextContent], structuredContent: structured };
}

const MESSAGE_BYTES = 256;
const SUGGESTION_BYTES = 512;
// C0/C1 controls, and the bidi embedding / override / isolate marks (the seller is a separate program:
// it keeps its own small rule rather than importing the harness's sanitizer).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f]/g;

/** Request-derived text (field names) can carry anything: keep error strings safe and short. */
export function safeText(s: string, maxBytes: number): string {
  let out = s.replace(UNSAFE, '?');
  if (Buffer.byteLength(out, 'utf8') <= maxBytes) return out;
  while (Buffer.byteLength(out + '…', 'utf8') > maxBytes) out = out.slice(0, -1);
  return out + '…';
}

export function sanitizeError(error: AdcpErrorBody): AdcpErrorBody {
  const safe: AdcpErrorBody = { ...error, message: safeText(error.message, MESSAGE_BYTES) };
  if (error.suggestion !== undefined) safe.suggestion = safeText(error.suggestion, SUGGESTION_BYTES);
  if (error.field !== undefined) safe.field = safeText(error.field, MESSAGE_BYTES);
  return safe;
}

/**
 * `release`: the release the call was served at, echoed beside adcp_error; absent when no release was
 * served (VERSION_UNSUPPORTED: the pin could not be honoured).
 */
export function errorResult(error: AdcpErrorBody, context: JsonObject | undefined, release?: string): ToolResult {
  const structured: JsonObject = { adcp_error: error };
  if (release !== undefined) structured['adcp_version'] = release;
  // The context travels next to adcp_error (where AdCP SDKs put it on error envelopes).
  if (context !== undefined) structured['context'] = context;
  return {
    content: [{ type: 'text', text: JSON.stringify({ adcp_error: error }) } satisfies TextContent],
    structuredContent: structured,
    isError: true,
  };
}
