// What the reports say about the webhook receiver of an agent: where the calls pointed, what arrived
// (bounded: the first deliveries, each body an excerpt), what the receiver answered. Every string is bounded
// and redacted here, before any report sees it; the capture (--record) keeps the exact bytes.
import { isObject, own } from '../json.ts';
import type { AgentCapture } from '../record/exchange.ts';
import { sellerText } from '../sanitize.ts';

/** Deliveries listed per agent; the rest are counted in `omitted`. */
export const DELIVERIES_SHOWN = 50;
/** Characters of a body, a header value, a target shown. */
const BODY_CHARS = 2048;
const HEADER_CHARS = 512;
const HEADERS_SHOWN = 32;
const TARGET_CHARS = 300;
const KEYS_CHARS = 600;

export interface WebhookDeliveryFacts {
  /** ms since the receiver started. */
  at: number;
  method: string;
  target: string;
  /** The call (index in the session) whose URL this is; -1 for a path the harness never handed out. */
  call: number;
  answered: number;
  /** Bytes the seller sent (counted past the bound too). */
  bodyBytes: number;
  cut?: string;
  headers: Array<[string, string]>;
  /** The body's start (UTF-8 text, or base64 per `bodyEncoding`), bounded. */
  body: string;
  bodyEncoding: 'utf8' | 'base64';
  /** Its signature checked under the RFC 9421 webhook profile with the agent's `webhookKeys`; absent: not verified. */
  verification?: { ok: true; keyid: string } | { ok: false; code: string; step?: number; message: string };
}

export interface WebhookFacts {
  base: string;
  kind: 'loopback' | 'public';
  deliveries: WebhookDeliveryFacts[];
  /** Deliveries not listed: past the receiver's count bound, or past DELIVERIES_SHOWN. */
  omitted: number;
  waitedMs: number;
  /** One line: what arrived, or why nothing could. */
  text: string;
  /** One line: `keys: <where from>` or `keys: none (<why>)`; absent when nothing needed keys. */
  keys?: string;
}

/** The report's view of capture.webhooks; undefined when no receiver ran. Reads a replayed capture defensively. */
export function webhookFacts(capture: AgentCapture, secrets: readonly string[]): WebhookFacts | undefined {
  const w: unknown = capture.webhooks;
  if (!isObject(w)) return undefined;
  const all = Array.isArray(own(w, 'deliveries')) ? (own(w, 'deliveries') as unknown[]) : [];
  const deliveries = all
    .slice(0, DELIVERIES_SHOWN)
    .filter(isObject)
    .map((d) => deliveryFacts(d, secrets));
  const omittedByReceiver = count(own(w, 'omitted'));
  const omitted = omittedByReceiver + Math.max(0, all.length - DELIVERIES_SHOWN);
  const kind = own(w, 'kind') === 'public' ? 'public' : 'loopback';
  const base = sellerText(own(w, 'base'), secrets, TARGET_CHARS);
  const note = own(w, 'note');
  const received = all.length + omittedByReceiver;
  const text =
    typeof note === 'string' && note !== ''
      ? sellerText(note, secrets, 500)
      : received > 0
        ? `${received} webhook deliver${received === 1 ? 'y' : 'ies'} received at ${base || 'the receiver'}${omitted ? ` (${omitted} not listed)` : ''}`
        : kind === 'loopback'
          ? `no webhook arrived at ${base}; a seller outside a sandbox refuses loopback callback URLs (AdCP security, webhook URL validation): give --webhook-url with a public HTTPS base that forwards to the receiver`
          : `no webhook arrived at ${base}`;
  const keys = keysText(own(w, 'keys'), secrets);
  return { base, kind, deliveries, omitted, waitedMs: count(own(w, 'waitedMs')), text, ...(keys !== undefined ? { keys } : {}) };
}

/** Where the verifying keys came from, or why there were none (capture.webhooks.keys), bounded and redacted. */
function keysText(k: unknown, secrets: readonly string[]): string | undefined {
  const source = own(k, 'source');
  if (typeof source === 'string') return sellerText(`keys: ${source}`, secrets, KEYS_CHARS);
  const problem = own(k, 'problem');
  if (typeof problem === 'string') return sellerText(`keys: none (${problem})`, secrets, KEYS_CHARS);
  return undefined;
}

function deliveryFacts(d: Record<string, unknown>, secrets: readonly string[]): WebhookDeliveryFacts {
  const call = own(d, 'call');
  const cut = own(d, 'cut');
  const headers = Array.isArray(own(d, 'headers')) ? (own(d, 'headers') as unknown[]) : [];
  return {
    at: count(own(d, 'at')),
    method: sellerText(own(d, 'method'), secrets, 16),
    target: sellerText(own(d, 'target'), secrets, TARGET_CHARS),
    call: typeof call === 'number' && Number.isSafeInteger(call) && call >= 0 ? call : -1,
    answered: count(own(d, 'answered')),
    bodyBytes: count(own(d, 'bodyBytes')),
    ...(typeof cut === 'string' ? { cut: sellerText(cut, secrets, 16) } : {}),
    headers: headers
      .slice(0, HEADERS_SHOWN)
      .filter((h): h is [unknown, unknown] => Array.isArray(h) && h.length === 2)
      .map(([k, v]) => [sellerText(k, secrets, 128), sellerText(v, secrets, HEADER_CHARS)]),
    body: sellerText(own(d, 'body'), secrets, BODY_CHARS),
    bodyEncoding: own(d, 'bodyEncoding') === 'base64' ? 'base64' : 'utf8',
    ...verificationFacts(own(d, 'verification'), secrets),
  };
}

/** The verification as recorded (a replayed capture is read defensively); nothing when there was none. */
function verificationFacts(v: unknown, secrets: readonly string[]): Pick<WebhookDeliveryFacts, 'verification'> {
  if (!isObject(v)) return {};
  if (own(v, 'ok') === true) return { verification: { ok: true, keyid: sellerText(own(v, 'keyid'), secrets, 200) } };
  const step = own(v, 'step');
  return {
    verification: {
      ok: false,
      code: sellerText(own(v, 'code'), secrets, 80),
      ...(typeof step === 'number' && Number.isSafeInteger(step) && step >= 0 ? { step } : {}),
      message: sellerText(own(v, 'message'), secrets, 500),
    },
  };
}

/** A delivery's signature in words: verified with which key, rejected with which code, or not verified. */
export function verificationText(d: Pick<WebhookDeliveryFacts, 'verification' | 'call'>): string {
  const v = d.verification;
  if (v?.ok === true) return `signature verified (key ${v.keyid})`;
  if (v) return `signature rejected: ${v.code}${v.step !== undefined ? ` (checklist step ${v.step})` : ''}: ${v.message}`;
  return d.call < 0 ? 'not verified (a path the harness never handed out)' : 'signature not verified (no key to verify it with: see keys)';
}

/** One delivery in words: `+1264 ms POST /…/45 (call 45), 344 bytes: answered 503; signature verified (key k)`. */
export function deliveryText(d: WebhookDeliveryFacts): string {
  const status = deliveryStatus(d);
  const cut = d.cut ? `, cut (${d.cut})` : '';
  const call = d.call >= 0 ? `call ${d.call}` : 'no call';
  return `+${d.at} ms ${d.method} ${d.target} (${call}), ${d.bodyBytes} bytes${cut}${status ? `, ${status}` : ''}: answered ${d.answered}; ${verificationText(d)}`;
}

/** The task status a delivery's JSON body reports (its `status`), when the excerpt is the whole body; '' otherwise. */
function deliveryStatus(d: WebhookDeliveryFacts): string {
  if (d.bodyEncoding !== 'utf8' || d.cut || d.body.length >= BODY_CHARS) return '';
  try {
    const status = own(JSON.parse(d.body), 'status');
    return typeof status === 'string' && /^[a-z_-]{1,32}$/.test(status) ? `status ${status}` : '';
  } catch {
    return '';
  }
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
