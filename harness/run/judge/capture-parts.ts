// The capture handed to the judge worker as UTF-8 JSON bytes, and read back there: one serialization on
// our side, one JSON.parse (iterative in V8) on the worker's, no structured clone of a big object graph
// (which overflows on deep nesting). In parts, one per exchange, so neither side holds the whole capture
// as one string (a two-byte string when a seller's text is not Latin-1: twice its UTF-8 bytes).
//
// What a live capture holds as the seller sent it goes as the seller's own text, not serialized again
// (record/answer-text.ts): each answer, and the tools/list pages. A 16 MB answer of a million keys cost a
// second of JSON.stringify per call, and an outputSchema nested 200k levels deep seconds of the
// non-recursive writer and hundreds of MB of its garbage, once in the tool list and again in every
// exchange that called the tool. An exchange's `advertised` schemas, the very values of its tool in the
// list, go as that tool's index. The worker puts each value back where its placeholder stands (the same
// key, so the same key order): JSON.parse of the same text gives the same value.
import { toJsonText } from '../../capture/json-text.ts';
import { own } from '../../json.ts';
import { advertisedOf } from '../../record/advertised.ts';
import { answerMember, answerTextOf, HELD_AS_TEXT_BYTES, heldTextOf, toolPagesOf, type AnswerMember } from '../../record/answer-text.ts';
import { collectGarbage } from '../../gc.ts';
import type { AgentCapture, Exchange } from '../../record/exchange.ts';

export interface CaptureParts {
  /** The capture with its exchanges an empty list (the whole capture when they are not a list). */
  frame: Uint8Array;
  /** Each exchange; null: the exchanges were not a list, and went in the frame. */
  exchanges: Uint8Array[] | null;
  /** `toolsList.tools` (an empty list in the frame) as the first `count` tools of each tools/list page's message text. */
  toolPages?: Array<{ message: Uint8Array; count: number }>;
  /** By exchange: the JSON-RPC message its answer (`outcome.result` or `outcome.error`, null in its part) is read from. */
  answers?: Array<Uint8Array | null>;
  /** By exchange: the index in `toolsList.tools` of the tool `advertised` (null in its part) is read from. */
  advertisedFrom?: Array<number | null>;
}

/** The whole capture as one part (what a broken record whose exchanges are not a list is sent as). */
export function captureBytes(capture: AgentCapture): Uint8Array {
  // toJsonText keeps ±Infinity (a seller's `1e400`) as such, and never recurses on deep nesting.
  return new TextEncoder().encode(toJsonText(capture));
}

export function captureParts(capture: AgentCapture): CaptureParts {
  if (!Array.isArray(capture.exchanges)) return { frame: captureBytes(capture), exchanges: null };
  const encoder = new TextEncoder();
  const exchanges = capture.exchanges;
  const parts: CaptureParts = { frame: new Uint8Array(0), exchanges: [] };

  // Placeholders keep their keys where they were: the worker sets the values back in place.
  const list = capture.toolsList?.ok === true && Array.isArray(capture.toolsList.tools) ? capture.toolsList.tools : [];
  const pages = toolPages(list);
  if (pages) parts.toolPages = pages.map((p) => ({ message: bytesOf(p.text, encoder), count: p.count }));
  const frame = { ...capture, exchanges: [], ...(pages ? { toolsList: { ...capture.toolsList, tools: [] } } : {}) };
  parts.frame = encoder.encode(toJsonText(frame));

  const answers: Array<Uint8Array | null> = [];
  const advertisedFrom: Array<number | null> = [];
  for (const x of exchanges) {
    const answer = answerOf(x);
    const tool = toolOf(x, list);
    answers.push(answer === undefined ? null : bytesOf(answer, encoder));
    advertisedFrom.push(tool ?? null);
    let sent: unknown = x;
    if (answer !== undefined || tool !== undefined) {
      const placed: Record<string, unknown> = { ...x };
      if (answer !== undefined) placed.outcome = withoutAnswer(x.outcome, answerMember(x.outcome)!);
      if (tool !== undefined) placed.advertised = null;
      sent = placed;
    }
    parts.exchanges!.push(encoder.encode(toJsonText(sent)));
  }
  if (answers.some((a) => a !== null)) parts.answers = answers;
  if (advertisedFrom.some((i) => i !== null)) parts.advertisedFrom = advertisedFrom;
  return parts;
}

/** The worker's side: the capture as it was handed over, each part's bytes emptied once parsed. */
export function captureFromParts(parts: CaptureParts): AgentCapture {
  const capture = JSON.parse(take(parts, 'frame')) as AgentCapture;
  if (parts.toolPages && capture.toolsList?.ok === true) {
    const pages = parts.toolPages;
    capture.toolsList.tools = pages.flatMap((page, i) => {
      pages[i] = { message: EMPTY, count: 0 };
      const tools = own(own(JSON.parse(utf8(page.message)), 'result'), 'tools');
      return Array.isArray(tools) ? tools.slice(0, page.count) : [];
    });
  }
  if (!parts.exchanges) return capture;
  const tools = capture.toolsList?.ok === true && Array.isArray(capture.toolsList.tools) ? capture.toolsList.tools : [];
  const exchanges = parts.exchanges;
  let unswept = 0;
  capture.exchanges = exchanges.map((bytes, i) => {
    exchanges[i] = EMPTY;
    const x = JSON.parse(utf8(bytes)) as Exchange;
    const answer = parts.answers?.[i];
    const member = answerMember(x.outcome);
    if (answer && member) {
      parts.answers![i] = null;
      (x.outcome as Record<string, unknown>)[member] = own(JSON.parse(utf8(answer)), member);
      // Large answers' texts and the garbage of their parse (~100 MB for a million keys): gone before the next
      // ones, but at most one collection per SWEEP_BYTES of them (each costs more as the capture grows).
      if (answer.byteLength >= HELD_AS_TEXT_BYTES && (unswept += answer.byteLength) >= SWEEP_BYTES) {
        collectGarbage();
        unswept = 0;
      }
    }
    const tool = parts.advertisedFrom?.[i];
    if (tool !== null && tool !== undefined) x.advertised = advertisedOf(tools[tool]);
    return x;
  });
  return capture;
}

/** Every buffer of the parts (to transfer them to the worker, not copy them). */
export function partsBuffers(p: CaptureParts): ArrayBuffer[] {
  const all = [p.frame, ...(p.exchanges ?? []), ...(p.toolPages ?? []).map((t) => t.message), ...(p.answers ?? [])];
  return all.filter((b): b is Uint8Array => b !== null).map((b) => b.buffer as ArrayBuffer);
}

/** The bytes of all the parts. */
export function partsLength(p: CaptureParts): number {
  return partsBuffers(p).reduce((n, b) => n + b.byteLength, 0);
}

// ---------------------------------------------------------------------------------------------------------

const EMPTY = new Uint8Array(0);

/** Bytes of large answers parsed between two garbage collections while a capture is read back. */
const SWEEP_BYTES = 8 * 1024 * 1024;

const utf8 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

function take(parts: CaptureParts, key: 'frame'): string {
  const text = utf8(parts[key]);
  parts[key] = EMPTY;
  return text;
}

/** A noted text as UTF-8 bytes of the parts' own (they are transferred to the worker: the note keeps its bytes). */
function bytesOf(text: string | Uint8Array, encoder: TextEncoder): Uint8Array {
  return typeof text === 'string' ? encoder.encode(text) : new Uint8Array(text);
}

/** The outcome with its answer null, in its place: a held answer (record/answer-text.ts) is not read back for it. */
function withoutAnswer(outcome: object, member: AnswerMember): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(outcome)) out[key] = key === member ? null : (outcome as Record<string, unknown>)[key];
  return out;
}

/** The message text of an exchange's answer, when it is a live answer noted with it (record/answer-text.ts). */
function answerOf(x: Exchange): string | Uint8Array | undefined {
  const member = answerMember(x.outcome);
  if (!member) return undefined;
  const held = heldTextOf(x.outcome);
  if (held) return held.member === member ? held.text : undefined;
  const value = (x.outcome as Record<string, unknown>)[member];
  const noted = answerTextOf(value);
  return noted?.member === member ? noted.text : undefined;
}

/** The tools/list pages `tools` was joined from, with their texts, when every page is a noted answer. */
function toolPages(tools: readonly unknown[]): Array<{ text: string | Uint8Array; count: number }> | undefined {
  const pages = toolPagesOf(tools);
  if (!pages) return undefined;
  const texts = pages.map((p) => answerTextOf(p.result));
  if (!texts.every((t) => t?.member === 'result')) return undefined;
  return pages.map((p, i) => ({ text: texts[i]!.text, count: p.count }));
}

/** The index of the listed tool whose schemas are, value for value, the exchange's `advertised`. */
function toolOf(x: Exchange, tools: readonly unknown[]): number | undefined {
  const advertised = x.advertised as unknown;
  if (advertised === null || typeof advertised !== 'object') return undefined;
  const i = tools.findIndex((t) => own(t, 'name') === x.tool);
  if (i < 0) return undefined;
  const expected = advertisedOf(tools[i]);
  const keys = Object.keys(advertised);
  const expectedKeys = Object.keys(expected);
  const same =
    keys.length === expectedKeys.length && keys.every((k, n) => expectedKeys[n] === k && own(advertised, k) === own(expected, k));
  return same ? i : undefined;
}
