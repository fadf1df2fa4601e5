// What the judge worker is running right now, shared with the thread that set its deadline through a
// SharedArrayBuffer instead of a message per step: the worker announces a step before every check on
// every call and before every seller-controlled compile or validation (tens of steps per call), and a
// postMessage each cost more than the judging itself. The sandbox reads it only when it needs it — a
// deadline or the memory limit stopped the worker — to name what was running (and leave it out of the
// next attempt). The buffer outlives a terminated worker.
// Layout: Int32 [0] a sequence number (odd while the worker writes), [1] length of the check step,
// [2] length of the schema step; then the check step's bytes, then the schema step's bytes (UTF-8, each
// cut at its region's size: a seller's tool name is bounded here like everywhere else).
import type { SchemaStep } from '../../schemas/schema-step.ts';

const SEQ = 0;
const CHECK_LEN = 1;
const SCHEMA_LEN = 2;
const HEADER = 16;
const CHECK_BYTES = 2048;
const SCHEMA_BYTES = 8192;
export const PROGRESS_BYTES = HEADER + CHECK_BYTES + SCHEMA_BYTES;

/** What was running, for a failure message. */
export interface Running {
  check?: { check: string; subject: string };
  schema?: SchemaStep;
}

export interface ProgressWriter {
  /** A check starts on a subject (a call's tool label, or the session); the schema step is cleared. */
  check(check: string, subject: string): void;
  schema(step: SchemaStep): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const SEP = '\u0000';
const ACTIONS: ReadonlyArray<SchemaStep['action']> = ['compile', 'validate'];

export function progressWriter(buffer: SharedArrayBuffer): ProgressWriter {
  const ctl = new Int32Array(buffer, 0, 4);
  const checkBytes = new Uint8Array(buffer, HEADER, CHECK_BYTES);
  const schemaBytes = new Uint8Array(buffer, HEADER + CHECK_BYTES, SCHEMA_BYTES);
  return {
    check(check, subject) {
      Atomics.add(ctl, SEQ, 1);
      const { written } = encoder.encodeInto(`${check}${SEP}${subject}`, checkBytes);
      Atomics.store(ctl, CHECK_LEN, written);
      Atomics.store(ctl, SCHEMA_LEN, 0);
      Atomics.add(ctl, SEQ, 1);
    },
    schema(step) {
      Atomics.add(ctl, SEQ, 1);
      const text = `${ACTIONS.indexOf(step.action)}${SEP}${step.tool}${SEP}${step.schema}${SEP}${step.patterns}`;
      const { written } = encoder.encodeInto(text, schemaBytes);
      Atomics.store(ctl, SCHEMA_LEN, written);
      Atomics.add(ctl, SEQ, 1);
    },
  };
}

/** Spins a reader may spend on one odd, unchanging sequence number: a writer stopped mid-write. */
const STALLED_SPINS = 1000;
/** Time a reader may spend while a live writer keeps moving on. */
const READ_BUDGET_MS = 50;

/**
 * What the worker was running, as far as it said. Never half of one step and half of another: a read
 * that overlaps a write is retried. A writer stopped mid-write (terminated) leaves its last bytes, read
 * as they are; a writer that keeps moving past the read budget (a loaded machine can deschedule the
 * reader inside every read) yields nothing rather than a torn step.
 */
export function readRunning(buffer: SharedArrayBuffer): Running {
  const ctl = new Int32Array(buffer, 0, 4);
  const deadline = Date.now() + READ_BUDGET_MS;
  let stalled = 0;
  let last = Atomics.load(ctl, SEQ);
  for (;;) {
    const before = Atomics.load(ctl, SEQ);
    const running = decode(buffer, ctl);
    const after = Atomics.load(ctl, SEQ);
    if (before % 2 === 0 && after === before) return running;
    stalled = after === last && before === after ? stalled + 1 : 0;
    last = after;
    if (stalled >= STALLED_SPINS) return running;
    if (Date.now() > deadline) return {};
  }
}

function decode(buffer: SharedArrayBuffer, ctl: Int32Array): Running {
  const running: Running = {};
  const checkLen = Math.min(Atomics.load(ctl, CHECK_LEN), CHECK_BYTES);
  if (checkLen > 0) {
    // TextDecoder does not read shared memory: copy the bytes out first.
    const text = decoder.decode(new Uint8Array(buffer, HEADER, checkLen).slice());
    const at = text.indexOf(SEP);
    running.check = at < 0 ? { check: text, subject: '' } : { check: text.slice(0, at), subject: text.slice(at + 1) };
  }
  const schemaLen = Math.min(Atomics.load(ctl, SCHEMA_LEN), SCHEMA_BYTES);
  if (schemaLen > 0) {
    const [action = '', tool = '', schema = '', ...patterns] = decoder
      .decode(new Uint8Array(buffer, HEADER + CHECK_BYTES, schemaLen).slice())
      .split(SEP);
    running.schema = { action: ACTIONS[Number(action)] ?? 'validate', tool, schema, patterns: patterns.join(SEP) };
  }
  return running;
}
