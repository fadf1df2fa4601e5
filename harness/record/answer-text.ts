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

/** Which member of its JSON-RPC message an exchange outcome's answer is (by its `kind`), when it has one. */
export function answerMember(outcome: unknown): AnswerMember | undefined {
  const kind = (outcome as { kind?: unknown } | null)?.kind;
  return kind === 'result' ? 'result' : kind === 'jsonrpc-error' ? 'error' : undefined;
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

/** From this many UTF-8 bytes of message on, a recorded answer is held as its text alone (holdAsText). */
export const HELD_AS_TEXT_BYTES = 1024 * 1024;

/** What the main thread's reports read of a held answer, taken from it once, when it was held. */
export interface HeldDigest {
  /** The seller's texts in the answer, as evidence shows them (extract/answer-facts.ts textsOfAnswer). */
  texts: readonly string[];
  /** The `code` of the AdCP error an error extraction finds, if any. */
  errorCode: unknown;
  /** The `adcp_version` of the payload a success extraction finds, if any. */
  echoedVersion: unknown;
}

interface Held {
  text: Uint8Array;
  member: AnswerMember;
  digest: HeldDigest;
}

// By outcome: what a held answer is read back from. The outcome holds it: an entry lives as long as the capture.
const held = new WeakMap<object, Held>();

/**
 * The exchange outcome `{ kind, result }` (or `{ kind, error }`) of a noted answer of HELD_AS_TEXT_BYTES or
 * more, holding the message's bytes instead of the parsed value: its member reads the value back from
 * them (JSON.parse of the same text: the same JSON value), and `digest` is taken of it now, for the
 * reports. A million-key answer parses to ~60 MB of heap for its 16 MB of text; the main thread held
 * every call's for as long as the capture lived, while the judge worker parsed its own copy. The answer
 * read back last stays parsed until another is read or releaseHeldAnswers() (a held answer is over
 * AdCP's 1 MB limit, a failing one: a scenario step may read it again). Any other outcome is returned as
 * it is.
 */
export function holdAsText<T extends object>(outcome: T, digest: (outcome: T) => HeldDigest): T {
  const member = answerMember(outcome);
  if (!member) return outcome;
  const value = (outcome as Record<string, unknown>)[member];
  const noted = answerTextOf(value);
  if (noted?.member !== member || typeof noted.text === 'string' || noted.text.byteLength < HELD_AS_TEXT_BYTES) return outcome;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(outcome)) {
    if (key !== member) out[key] = (outcome as Record<string, unknown>)[key];
    else
      Object.defineProperty(out, key, {
        enumerable: true,
        configurable: true,
        get: () => readBack(out),
        // Whoever sets a value holds that value from then on: no longer the text's (nor its digest's).
        set: (v: unknown) => {
          held.delete(out);
          if (lastRead?.outcome === out) lastRead = undefined;
          Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
        },
      });
  }
  held.set(out, { text: noted.text, member, digest: digest(outcome) });
  lastRead = { outcome: out, value };
  heldSince = true;
  return out as T;
}

/** The text a held outcome's answer is read from (without reading it back), when `outcome` is one (holdAsText). */
export function heldTextOf(outcome: unknown): AnswerText | undefined {
  const h = outcome !== null && typeof outcome === 'object' ? held.get(outcome) : undefined;
  return h && { text: h.text, member: h.member };
}

/** What the reports read of a held outcome's answer, when `outcome` is one (holdAsText). */
export function heldDigestOf(outcome: unknown): HeldDigest | undefined {
  return outcome !== null && typeof outcome === 'object' ? held.get(outcome)?.digest : undefined;
}

/** The held answer read back last (or just held), parsed: one at a time in the whole thread. */
let lastRead: { outcome: object; value: unknown } | undefined;
let heldSince = false;

/** Lets go of the answer read back last. True when an answer was held since the last call (its garbage is worth collecting). */
export function releaseHeldAnswers(): boolean {
  const any = heldSince;
  lastRead = undefined;
  heldSince = false;
  return any;
}

function readBack(outcome: object): unknown {
  if (lastRead?.outcome === outcome) return lastRead.value;
  lastRead = undefined; // garbage from here on, before this one's parse adds its own
  const h = held.get(outcome)!;
  const message: unknown = JSON.parse(Buffer.from(h.text.buffer, h.text.byteOffset, h.text.byteLength).toString('utf8'));
  const value =
    message !== null && typeof message === 'object' && Object.hasOwn(message, h.member)
      ? (message as Record<string, unknown>)[h.member]
      : undefined;
  lastRead = { outcome, value };
  return value;
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
