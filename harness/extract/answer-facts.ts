// What the reports read of an answer besides the checks: the seller's texts in it (the evidence), the
// AdCP error code (the account refusals), the `adcp_version` it echoes (the release served). Of an
// answer held as its text (record/answer-text.ts) they read the digest taken when it was held, so that
// no report parses a large answer again on the main thread.
import { isObject, jsonPrefix, own } from '../json.ts';
import { heldDigestOf, type HeldDigest } from '../record/answer-text.ts';
import type { ExchangeOutcome } from '../record/exchange.ts';
import { extractError } from './error.ts';
import { extractSuccess } from './success.ts';

/** How much of a JSON value an excerpt shows, in characters (evidence shows at most a quarter of it). */
const EXCERPT_CHARS = 3200;

/** What holdAsText keeps of an answer: the facts below, read off the value while it is at hand. */
export function answerDigest(outcome: ExchangeOutcome): HeldDigest {
  return { texts: answerTextsOf(outcome), errorCode: errorCodeOf(outcome), echoedVersion: echoedVersionOf(outcome) };
}

/** The `code` of the AdCP error a client extracts from the answer, if any. */
export function errorCodeOf(outcome: ExchangeOutcome): unknown {
  const digest = heldDigestOf(outcome);
  return digest ? digest.errorCode : own(extractError(outcome)?.error, 'code');
}

/** The `adcp_version` of the success payload a client extracts from the answer, if any. */
export function echoedVersionOf(outcome: ExchangeOutcome): unknown {
  const digest = heldDigestOf(outcome);
  if (digest) return digest.echoedVersion;
  return outcome.kind === 'result' ? own(extractSuccess(outcome.result), 'adcp_version') : undefined;
}

/** Every text a seller put in its answer, in the order a reader looks at them. */
export function textsOfAnswer(outcome: ExchangeOutcome): readonly string[] {
  return heldDigestOf(outcome)?.texts ?? answerTextsOf(outcome);
}

function answerTextsOf(outcome: ExchangeOutcome): string[] {
  const out: string[] = [];
  if (outcome.kind === 'transport-error') {
    out.push(`no answer: ${outcome.failure.kind}: ${outcome.failure.message}`);
    return out;
  }
  if (outcome.kind === 'jsonrpc-error') {
    const e = outcome.error;
    out.push(
      `JSON-RPC error ${String(own(e, 'code'))}: ${typeof own(e, 'message') === 'string' ? String(own(e, 'message')) : JSON.stringify(own(e, 'message'))}`,
    );
    const data = own(e, 'data');
    if (data !== undefined) out.push(`data: ${safeJson(data)}`);
    return out;
  }
  const result = outcome.result;
  if (!isObject(result)) return [`result: ${safeJson(result)}`];
  const structured = own(result, 'structuredContent');
  const adcpError = own(structured, 'adcp_error');
  if (adcpError !== undefined) out.push(`adcp_error: ${safeJson(adcpError)}`);
  const content = own(result, 'content');
  const mirrored = structured === undefined ? undefined : safeJson(structured);
  if (Array.isArray(content)) {
    for (const item of content.slice(0, 3)) {
      const text = own(item, 'text');
      if (typeof text === 'string' && text !== '' && !sameJson(text, mirrored)) out.push(text);
    }
  }
  if (adcpError === undefined && structured !== undefined && own(result, 'isError') !== true)
    out.unshift(`structuredContent: ${mirrored ?? safeJson(structured)}`);
  return out;
}

/** A text item that only mirrors structuredContent adds nothing to the evidence. */
function sameJson(text: string, json: string | undefined): boolean {
  if (json === undefined || text.length > EXCERPT_CHARS) return false;
  try {
    return JSON.stringify(JSON.parse(text)) === json;
  } catch {
    return false;
  }
}

/**
 * Excerpts already written, by the seller value they show (never changed once captured): every finding on
 * one answer shows the same excerpt, and an object of a million keys costs ~0.4 s just to list its keys.
 */
const excerpts = new WeakMap<object, string>();

/** A bounded JSON excerpt of a seller value (`…` when cut). */
export function safeJson(v: unknown): string {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return String(v);
  const key = v !== null && typeof v === 'object' ? v : undefined;
  const cached = key && excerpts.get(key);
  if (cached !== undefined) return cached;
  let excerpt: string;
  try {
    // Only the excerpt is written: a 16 MB answer is not serialized whole for every finding that shows it.
    const { text, complete } = jsonPrefix(v, EXCERPT_CHARS);
    excerpt = complete ? text : `${text}…`;
  } catch {
    excerpt = '[unserializable]';
  }
  if (key) excerpts.set(key, excerpt);
  return excerpt;
}
