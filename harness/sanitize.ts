// Seller-controlled text on its way into a report: stripped of characters that can forge or hide
// output (control, bidi, zero-width), redacted of secrets, bounded in length. Escaping for a given
// format (XML, Markdown) is a separate, later step: `escapeXml`, `escapeMarkdown`.
import { redact } from './config/redact.ts';

/** Default bound on one seller string in a report, in code points. */
export const MAX_TEXT = 1000;

// C0 controls except the three whitespace ones (handled below), DEL and C1 controls.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// Bidi embeddings/overrides/isolates and marks, zero-width characters, BOM, interlinear annotations,
// and the non-characters U+FFFE/U+FFFF (invalid in XML).
const INVISIBLE = /[\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB\uFFFE\uFFFF]/g;
// Line breaks would let a seller forge extra report lines: they become a visible space.
const BREAKS = /[\t\n\r\u0085\u2028\u2029]/g;
// Surrogates that are not part of a pair (JSON.parse accepts them; XML does not).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Remove characters that can forge or hide output; keep everything else as is. */
export function stripUnsafe(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replace(BREAKS, ' ').replace(CONTROL, '').replace(INVISIBLE, '');
}

/** Cut to `max` code points (never inside a surrogate pair), saying how much was dropped. */
export function truncate(text: string, max: number = MAX_TEXT): string {
  // Cheap path first: UTF-16 length bounds the code-point count from above.
  if (text.length <= max) return text;
  const points = Array.from(text);
  if (points.length <= max) return text;
  return `${points.slice(0, max).join('')}… (+${points.length - max} chars)`;
}

/**
 * Any value a seller sent, as one safe line of text: strings as they are, other values as JSON.
 * Order matters: strip first (so a bidi mark inside a secret cannot hide it from redaction), then
 * redact, then truncate (so a cut never leaves half a secret).
 */
export function sellerText(value: unknown, secrets: readonly string[] = [], max: number = MAX_TEXT): string {
  return truncate(redact(stripUnsafe(stringify(value)), secrets), max);
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[unserializable value]';
  }
}

/** A seller value that should be a short string (server name, version), or null when it is absent / not a string. */
export function optionalText(value: unknown, secrets: readonly string[] = [], max = 200): string | null {
  if (typeof value === 'string' || typeof value === 'number') return sellerText(String(value), secrets, max);
  return null;
}

// Characters XML 1.0 does not allow at all (Char production): C0 controls but tab / LF / CR, lone
// surrogates, U+FFFE and U+FFFF. A single one makes the whole junit.xml unparsable.
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for an XML attribute or element body: XML-illegal characters dropped, markup escaped. */
export function escapeXml(text: string): string {
  return text.replace(XML_ILLEGAL, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** Text for a Markdown table cell or list item: no formatting, links, HTML or cell breaks survive. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_{}[\]()#+.!|~]/g, (c) => `\\${c}`);
}

// Everything stripUnsafe removes, plus line breaks and tabs: shown as visible escapes instead, for one
// line of text where the reader should see that the seller sent them (a check's found value).
const INVISIBLE_OR_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

/** Seller text as one visible line: control, bidi and zero-width characters escaped (`\u202e`), length bounded. */
export function escapeVisible(text: string, max = 200): string {
  const escaped = text.replace(LONE_SURROGATE, '\uFFFD').replace(INVISIBLE_OR_CONTROL, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}
