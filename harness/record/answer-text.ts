// The JSON text a live answer was parsed from, kept beside the capture (never in it: recordings and
// reports carry the parsed values). Handing a capture to the judge then sends the seller's own text for
// an answer instead of serializing the parsed value again: one 16 MB answer of a million keys costs a
// second of JSON.stringify, and one nested 200k levels deep costs seconds of a non-recursive writer and
// hundreds of MB of its garbage. A ground-floor module (it imports nothing of ours).
import { Buffer } from 'node:buffer';

/** Which member of the JSON-RPC message the value is (`result` of a result, `error` of an error). */
export type AnswerMember = 'result' | 'error';

export interface AnswerText {
  /**
   * The whole JSON-RPC message as it came off the wire (a stdout line, a JSON body, an SSE event's data):
   * the string itself, or, from LARGE_TEXT_CHARS on, its UTF-8 bytes. A string holding one character
   * outside Latin-1 takes two bytes a character: a 12 MB answer kept as text cost 24 MB of heap for as long
   * as its capture lived, twice what the judge is handed anyway.
   */
  text: string | Uint8Array;
  member: AnswerMember;
}

/** From this length on, a noted text is kept as UTF-8 bytes (see AnswerText.text). */
export const LARGE_TEXT_CHARS = 64 * 1024;

// Keyed by the parsed value itself: an entry lives exactly as long as the capture that holds the value.
const texts = new WeakMap<object, AnswerText>();

/**
 * Note that `value` is `message[member]`, an own property of the message JSON.parse made of `text`, and
 * that nothing changed it since: JSON.parse(text)[member] is then the same JSON value.
 */
export function noteAnswerText(value: unknown, text: string, member: AnswerMember): void {
  if (value === null || typeof value !== 'object') return;
  texts.set(value, { text: text.length >= LARGE_TEXT_CHARS ? Buffer.from(text, 'utf8') : text, member });
}

/** The text `value` was parsed from, when it is a live answer noted above. */
export function answerTextOf(value: unknown): AnswerText | undefined {
  return value !== null && typeof value === 'object' ? texts.get(value) : undefined;
}

/** One tools/list page: its `result` (a noted answer) and how many of its `tools` the list kept, from the first. */
export interface ToolPage {
  result: unknown;
  count: number;
}

const toolPages = new WeakMap<readonly unknown[], readonly ToolPage[]>();

/** Note that `tools` is, in order, the first `count` items of each page's `result.tools`, and nothing else. */
export function noteToolPages(tools: readonly unknown[], pages: readonly ToolPage[]): void {
  toolPages.set(tools, pages);
}

/** The pages `tools` was joined from, when it is a live tools/list noted above. */
export function toolPagesOf(tools: unknown): readonly ToolPage[] | undefined {
  return Array.isArray(tools) ? toolPages.get(tools) : undefined;
}
