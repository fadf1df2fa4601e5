// Reading seller JSON safely inside checks. Seller values are `unknown`: own properties only (a parsed
// `"__proto__"` key is an own data property and is read as data), no spreading, bounded walks.

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
  return Object.getOwnPropertyDescriptor(v, key)?.value;
}

/** One RFC 6901 reference token. */
export function token(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Depth past which a walk gives up (hostile nesting); JSON from a 1 MiB body can nest ~500k deep. */
export const MAX_DEPTH = 256;

/**
 * Deep equality of two JSON values (own enumerable keys, key order ignored). Iterative with a depth
 * bound: values nested deeper than MAX_DEPTH compare unequal rather than blow the stack.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: Array<[unknown, unknown, number]> = [[a, b, 0]];
  while (stack.length > 0) {
    const [x, y, depth] = stack.pop()!;
    if (Object.is(x, y)) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (depth > MAX_DEPTH) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i], depth + 1]);
      continue;
    }
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.length !== ky.length) return false;
    for (const k of kx) {
      if (!hasOwn(y, k)) return false;
      stack.push([own(x, k), own(y, k), depth + 1]);
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

/** UTF-8 bytes of a JSON value as serialized, or null when it cannot be serialized. */
export function jsonBytes(v: unknown): number | null {
  const s = safeStringify(v);
  return s === null ? null : Buffer.byteLength(s, 'utf8');
}

const PREVIEW_CHARS = 200;

/** A short readable rendering of a seller value for `found` (bounded; engine escapes control chars). */
export function preview(v: unknown): string {
  if (v === undefined) return 'absent';
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
