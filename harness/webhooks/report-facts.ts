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
  return { base, kind, deliveries, omitted, waitedMs: count(own(w, 'waitedMs')), text };
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
  };
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
