// Reading seller JSON safely, for every stage (a ground-floor module: it imports nothing of ours). Seller
// values are `unknown`: own properties only (a parsed `"__proto__"` key is an own data property and is
// read as data, never as the prototype), no spreading, no copying seller objects into ours, bounded walks.

export type JsonObject = Record<string, unknown>;

/** A non-null, non-array object. */
export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function hasOwn(v: unknown, key: string): boolean {
  return v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, key);
}

/** The value of an own property, or undefined (inherited properties are never seller data). */
export function own(v: unknown, key: string): unknown {
  if (!hasOwn(v, key)) return undefined;
  const d = Object.getOwnPropertyDescriptor(v, key);
  // Seller JSON has data properties only; an accessor is ours (an answer held as text: record/answer-text.ts).
  return d && ('value' in d ? d.value : d.get?.call(v));
}

/** Escape one JSON-pointer reference token (RFC 6901). */
export function token(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Depth past which a walk gives up (hostile nesting); JSON from a 1 MiB body can nest ~500k deep. */
export const MAX_DEPTH = 256;

/** Values a whole-document walk visits at most (a cyclic value from a broken recording must not spin forever). */
const MAX_WALK = 50_000_000;

/**
 * Deep equality of two JSON values (own enumerable keys, key order ignored). Iterative, with no depth
 * bound (the stack is explicit): an answer nested 2000 levels deep whose text mirror is the same data
 * compares equal. Parsed JSON has no cycles; the walk budget only guards a broken value that does.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: Array<[unknown, unknown]> = [[a, b]];
  let steps = 0;
  while (stack.length > 0) {
    if (++steps > MAX_WALK) return false;
    const [x, y] = stack.pop()!;
    if (Object.is(x, y)) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
      continue;
    }
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.length !== ky.length) return false;
    for (const k of kx) {
      if (!hasOwn(y, k)) return false;
      stack.push([own(x, k), own(y, k)]);
    }
  }
  return true;
}

/** JSON.stringify that never throws (deep nesting, BigInt from a bad recording): null instead. */
export function safeStringify(v: unknown): string | null {
  try {
    const s = JSON.stringify(v);
    return typeof s === 'string' ? s : null;
  } catch {
    return null;
  }
}

/**
 * The first `maxChars` characters of JSON.stringify(v), without serializing the rest: an explicit stack
 * that stops writing once it has them (a 16 MB answer's evidence excerpt costs its first kilobytes, not a
 * 16 MB string per finding), and no recursion (an answer nested 200k levels deep shows its first levels).
 * `complete` says whether that was the whole text. Throws on a BigInt, as JSON.stringify does.
 */
export function jsonPrefix(v: unknown, maxChars: number): { text: string; complete: boolean } {
  type Frame = { v: unknown } | { array: unknown[]; at: number } | { object: object; keys: string[]; at: number; wrote: boolean };
  let text = '';
  const stack: Frame[] = [{ v }];
  while (stack.length > 0) {
    if (text.length > maxChars) return { text: text.slice(0, maxChars), complete: false };
    const top = stack[stack.length - 1]!;
    if ('v' in top) {
      stack.pop();
      const x = top.v;
      if (x === null || x === undefined || typeof x === 'function' || typeof x === 'symbol') text += 'null';
      else if (typeof x === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
      else if (typeof x === 'string') {
        // Written whole by JSON.stringify: a long one is cut before it is escaped.
        text += x.length > maxChars ? JSON.stringify(x.slice(0, maxChars)).slice(0, -1) : JSON.stringify(x);
      } else if (typeof x !== 'object') text += JSON.stringify(x);
      else if (Array.isArray(x)) {
        text += '[';
        stack.push({ array: x, at: 0 });
      } else {
        text += '{';
        stack.push({ object: x, keys: Object.keys(x), at: 0, wrote: false });
      }
    } else if ('array' in top) {
      if (top.at >= top.array.length) {
        stack.pop();
        text += ']';
      } else {
        if (top.at > 0) text += ',';
        stack.push({ v: top.array[top.at++] });
      }
    } else {
      let next: { v: unknown } | undefined;
      while (!next && top.at < top.keys.length) {
        const key = top.keys[top.at++]!;
        const value = own(top.object, key);
        if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue; // JSON.stringify drops them
        text += `${top.wrote ? ',' : ''}${JSON.stringify(key)}:`;
        top.wrote = true;
        next = { v: value };
      }
      if (next) stack.push(next);
      else {
        stack.pop();
        text += '}';
      }
    }
  }
  return text.length > maxChars ? { text: text.slice(0, maxChars), complete: false } : { text, complete: true };
}

/**
 * UTF-8 bytes of a JSON value as JSON.stringify would serialize it, or null when it cannot be serialized.
 * Counted with an explicit stack, never by serializing: an answer nested 200k levels deep (which makes
 * JSON.stringify overflow the call stack) is measured like any other.
 */
export function jsonBytes(v: unknown): number | null {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return null;
  // Parsed JSON serializes in one native pass, to exactly what the walk below counts; the walk is for what
  // JSON.stringify refuses (nesting deep enough to overflow the call stack, a BigInt, a cycle).
  try {
    const text = JSON.stringify(v);
    if (typeof text === 'string') return Buffer.byteLength(text, 'utf8');
  } catch {
    // measured by the walk
  }
  return jsonBytesWalk(v);
}

/** jsonBytes by an explicit stack (exported for tests: it must count what JSON.stringify writes). */
export function jsonBytesWalk(v: unknown): number | null {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return null;
  let total = 0;
  let steps = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    if (++steps > MAX_WALK) return null;
    const x = stack.pop();
    if (x === null || x === undefined || typeof x === 'function' || typeof x === 'symbol')
      total += 4; // null (only array items reach here as undefined)
    else if (typeof x === 'string') total += Buffer.byteLength(JSON.stringify(x), 'utf8');
    else if (typeof x === 'number') total += Number.isFinite(x) ? String(x).length : 4;
    else if (typeof x === 'boolean') total += x ? 4 : 5;
    else if (typeof x === 'bigint') return null;
    else if (Array.isArray(x)) {
      total += 2 + Math.max(0, x.length - 1);
      for (let i = 0; i < x.length; i++) stack.push(x[i]);
    } else {
      const keys = Object.keys(x).filter((k) => {
        const item = own(x, k);
        return item !== undefined && typeof item !== 'function' && typeof item !== 'symbol';
      });
      total += 2 + Math.max(0, keys.length - 1);
      for (const k of keys) {
        total += Buffer.byteLength(JSON.stringify(k), 'utf8') + 1;
        stack.push(own(x, k));
      }
    }
  }
  return total;
}

const PREVIEW_CHARS = 200;

/** A short readable rendering of a seller value for `found` (bounded; engine escapes control chars). */
export function preview(v: unknown): string {
  if (v === undefined) return 'absent';
  // JSON.stringify writes Infinity / NaN as `null`: say what they are (JSON.parse turns 1e400 into Infinity).
  if (typeof v === 'number' && !Number.isFinite(v)) return `${v} (not a finite number: a JSON number too large for a double, e.g. 1e400)`;
  if (typeof v === 'string') return clip(JSON.stringify(v.length > PREVIEW_CHARS * 2 ? v.slice(0, PREVIEW_CHARS * 2) : v));
  const s = safeStringify(v);
  return s === null ? `an unserializable ${describeType(v)}` : clip(s);
}

export function clip(s: string, max = PREVIEW_CHARS): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** `object`, `array`, `null`, `string`, … — the JSON type of a value. */
export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
