// Success extraction — AdCP "MCP response extraction" (the AdCP MCP response-extraction page), exactly as the spec's
// sample code decides, including its size rule: the 1 MB limit is checked BEFORE JSON.parse and is
// measured as the sample measures it (`text.length`, UTF-16 code units). The check catalog asks to measure in
// UTF-8 bytes as well and report where the two disagree: `textSize` gives both numbers for reports; the
// decision itself stays the spec's, so the harness reads a response the way a conformant client does.
//
// Deliberate hardening that cannot change the outcome for JSON input: non-object content items are
// skipped (the sample would throw on `null.type`), and `text` must be a string (the sample would
// `JSON.parse` a coerced non-string).
import { isObject, own, type JsonObject } from '../json.ts';

/** The spec's limit: 1 MiB. */
export const TEXT_LIMIT = 1_048_576;

export function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Both measures of a text, for reports (they differ for any non-ASCII text). */
export function textSize(s: string): { utf16Units: number; utf8Bytes: number; overLimitUtf8: boolean; overLimitUtf16: boolean } {
  const bytes = utf8Bytes(s);
  return { utf16Units: s.length, utf8Bytes: bytes, overLimitUtf8: bytes > TEXT_LIMIT, overLimitUtf16: s.length > TEXT_LIMIT };
}

/** A non-array object whose only own key is `adcp_error` (an error that lost its `isError` flag). */
export function isAdcpErrorOnly(v: unknown): boolean {
  if (!isObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === 'adcp_error';
}

export type SuccessLocation =
  | { path: 'structuredContent'; pointer: '/structuredContent'; data: JsonObject }
  | { path: 'text_fallback'; pointer: string; index: number; data: JsonObject };

/** The spec's decision, plus where the data came from (pointers are relative to the tool result). */
export function locateSuccess(result: unknown): SuccessLocation | null {
  if (!isObject(result)) return null;
  // 1. Errors take the other path (truthy, as the spec's `if (response.isError)`).
  if (own(result, 'isError')) return null;

  // 2. structuredContent, when it is a non-array object, decides alone.
  const sc = own(result, 'structuredContent');
  if (isObject(sc)) {
    if (isAdcpErrorOnly(sc)) return null;
    return { path: 'structuredContent', pointer: '/structuredContent', data: sc };
  }

  // 3. Text fallback: first text item that parses to a non-array object that is not adcp_error-only.
  const content = own(result, 'content');
  if (!Array.isArray(content)) return null;
  for (let index = 0; index < content.length; index++) {
    const item: unknown = content[index];
    if (!isObject(item) || own(item, 'type') !== 'text') continue;
    const text = own(item, 'text');
    if (typeof text !== 'string' || text === '') continue;
    if (text.length > TEXT_LIMIT) continue; // before parsing, as the spec's code
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue; // not JSON
    }
    if (!isObject(parsed) || isAdcpErrorOnly(parsed)) continue;
    return { path: 'text_fallback', pointer: `/content/${index}/text`, index, data: parsed };
  }

  // 4. Plain text: no machine-readable AdCP data.
  return null;
}

export function extractSuccess(result: unknown): Record<string, unknown> | null {
  return locateSuccess(result)?.data ?? null;
}
