// Seller-controlled text on its way into a report: stripped of characters that can forge or hide
// output (control, bidi, zero-width), redacted of secrets, bounded in length. Escaping for a given
// format (XML, Markdown) is a separate, later step: `escapeXml`, `escapeMarkdown`.
import { redact } from './config/redact.ts';

/** Default bound on one seller string in a report, in code points. */
export const MAX_TEXT = 1000;

// THE definition of characters that can forge or hide output, used by every writer and by the checks
// that judge seller text: C0 controls, DEL and C1 controls; bidi marks, embeddings, overrides and
// isolates; zero-width characters and the BOM; line and paragraph separators; interlinear annotations;
// and the non-characters U+FFFE / U+FFFF (invalid in XML).
const UNSAFE_CLASS =
  '\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u180E\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB\\uFFFE\\uFFFF';
const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]`, 'g');
const UNSAFE_RUN = new RegExp(`[${UNSAFE_CLASS}\\s]+`, 'g');
// Line breaks (and tabs) among them: where text is stripped they become a visible space, so a seller
// cannot forge extra report lines nor glue two words into one.
const BREAKS = /[\t\n\r\u0085\u2028\u2029]/g;
// Surrogates that are not part of a pair (JSON.parse accepts them; XML does not).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Remove characters that can forge or hide output; keep everything else as is. */
export function stripUnsafe(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replace(BREAKS, ' ').replace(UNSAFE, '');
}

/** Several lines (a stack trace, a usage text): each line stripped of unsafe characters, the breaks kept. */
export function stripUnsafeKeepingLines(text: string): string {
  return text.split(/\r?\n/).map(stripUnsafe).join('\n');
}

/** The first unsafe character of a text and where it is, or null (for checks that judge seller text). */
export function firstUnsafeChar(text: string): { char: string; index: number } | null {
  UNSAFE.lastIndex = 0;
  const m = UNSAFE.exec(text);
  UNSAFE.lastIndex = 0;
  return m ? { char: m[0], index: m.index } : null;
}

/** One line of text: every run of unsafe characters and white space becomes one space; trimmed. */
export function flattenLine(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replace(UNSAFE_RUN, ' ').trim();
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
/* eslint-disable no-control-regex -- matching control characters is the point */
const XML_ILLEGAL =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/* eslint-enable no-control-regex */

/** Text for an XML attribute or element body: XML-illegal characters dropped, markup escaped. */
export function escapeXml(text: string): string {
  return text
    .replace(XML_ILLEGAL, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Text inside a Markdown table cell or list item (never at a line start): no formatting, link, HTML, math
 * or cell break survives, and nothing else is escaped (`get_products`, `0.1.0` and `(x)` stay as they are):
 * `<` and entity-like `&` become entities; `\ ` * [ ] | ~ $` a backslash escape; `_` only where it could
 * open emphasis (not after a letter or digit: GFM never opens intraword `_`).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/[\\`*[\]|~$]/g, (c) => `\\${c}`)
    .replace(/(?<![\p{L}\p{N}])_/gu, '\\_');
}

/** Seller text as one visible line: unsafe characters shown as escapes (`\\n`, `\\u202e`), length bounded. */
export function escapeVisible(text: string, max = 200): string {
  const escaped = text.replace(LONE_SURROGATE, '\uFFFD').replace(UNSAFE, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}

/**
 * Text for an HTML element body or a double- or single-quoted attribute value: markup and quotes escaped,
 * XML-illegal characters dropped (callers pass text already stripped of unsafe characters).
 */
export function escapeHtml(text: string): string {
  return text
    .replace(XML_ILLEGAL, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/`/g, '&#96;');
}
