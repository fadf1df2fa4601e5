// Turning whatever an SDK, undici or the OS threw into one recorded TransportFailure: a kind and one
// readable, secret-free line. Seller text can ride inside these errors (HTTP bodies, JSON-RPC
// messages), so every message is redacted and flattened here.
import type { TransportFailure, TransportFailureKind } from '../record/exchange.ts';
import { redact } from '../config/redact.ts';
import { flattenLine } from '../sanitize.ts';

const MAX_MESSAGE = 300;

/** One line: control characters (incl. newlines and bidi controls) become spaces; truncated; redacted. */
export function oneLine(text: string, secrets: readonly string[], max = MAX_MESSAGE): string {
  // Redact before flattening and truncating, so a secret cut in half can never survive.
  const flat = flattenLine(redact(text, secrets));
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function failure(
  kind: TransportFailureKind,
  message: string,
  secrets: readonly string[],
  extra: Omit<TransportFailure, 'kind' | 'message'> = {},
): TransportFailure {
  return { kind, message: oneLine(message, secrets), ...extra };
}

/** The byte cap was passed while reading a body; thrown into the SDK so its read stops. */
export class OversizeError extends Error {
  constructor(
    readonly bytesSeen: number,
    readonly maxBytes: number,
  ) {
    super(`answer passed the ${maxBytes}-byte cap (${bytesSeen} bytes read); the call was aborted`);
    this.name = 'OversizeError';
  }
}

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT',
  'EACCES',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ERR_STREAM_PREMATURE_CLOSE']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
/** OpenSSL and Node TLS codes (wrong version number, untrusted or mismatched certificates): kept in the message, which is all a recording keeps. */
const TLS_CODE = /^(?:ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$)/;

function codeOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether an error, or one of its causes, has this name (undici's parser errors often carry no code). */
function causedBy(err: unknown, name: string): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ((e as { name?: unknown }).name === name) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function messageOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message && !err.message.includes(cause.message) ? `${err.message}: ${cause.message}` : err.message;
}

/** Classify a thrown value. `phase` tells what the harness was doing (a failure while connecting is 'connect'). */
export function classify(err: unknown, secrets: readonly string[], phase: 'connect' | 'call' = 'call'): TransportFailure {
  if (err instanceof OversizeError) return failure('oversize', err.message, secrets, { bytesSeen: err.bytesSeen });
  const message = messageOf(err);
  const name = err instanceof Error ? err.name : '';
  const numericCode = err && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  if (name === 'McpError' && numericCode === -32001) return failure('timeout', message, secrets);
  if (name === 'McpError' && numericCode === -32000) return failure('closed', message, secrets);
  if (name === 'ZodError' || /protocol version is not supported|invalid initialize result/i.test(message)) {
    return failure('protocol', message, secrets);
  }
  if (name === 'AbortError' || name === 'TimeoutError') return failure('timeout', message, secrets);
  const code = codeOf(err);
  // llhttp refused the response (a header folded over CR LF, a control character in a header …): the
  // seller's HTTP is malformed, whatever the harness was doing.
  if (code?.startsWith('HPE_') || causedBy(err, 'HTTPParserError'))
    return failure('protocol', `malformed HTTP response: ${message}`, secrets);
  if (code === 'UND_ERR_HEADERS_OVERFLOW')
    return failure('network', `${code}: the response headers passed the client's size limit (${message})`, secrets);
  if (code && TIMEOUT_CODES.has(code)) return failure('timeout', `${code}: ${message}`, secrets);
  if (code && CONNECT_CODES.has(code)) return failure(phase === 'connect' ? 'connect' : 'network', `${code}: ${message}`, secrets);
  if (code && CLOSED_CODES.has(code)) return failure('closed', `${code}: ${message}`, secrets);
  if (code && TLS_CODE.test(code)) return failure(phase === 'connect' ? 'connect' : 'network', `${code}: ${message}`, secrets);
  if (name === 'SyntaxError') return failure('protocol', message, secrets);
  return failure(phase === 'connect' ? 'connect' : 'network', message, secrets);
}
