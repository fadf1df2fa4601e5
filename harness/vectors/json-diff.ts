// Structural deep-equal for parsed JSON, reporting the first difference as `pointer: expected …, got …`.
// Keys are compared as own enumerable keys, read through property descriptors, so a JSON-parsed
// `"__proto__"` key is an ordinary key on both sides (never the prototype, never copied).
import { token } from '../json.ts';

const MAX_SHOWN = 80;

/** A short, single-line rendering of a value for diffs. */
export function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  let text: string;
  try {
    text = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    text = String(v);
  }
  if (text.length > MAX_SHOWN) {
    const bytes = typeof v === 'string' ? `, ${v.length} chars` : '';
    text = `${text.slice(0, MAX_SHOWN)}…${bytes}`;
  }
  return text;
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function ownValue(o: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(o, key)?.value;
}

/** null when equal; otherwise the first difference (depth-first, keys in expected order, then extras). */
export function jsonDiff(expected: unknown, actual: unknown, pointer = ''): string | null {
  const at = pointer === '' ? '(root)' : pointer;
  const ek = kind(expected);
  const ak = kind(actual);
  if (ek !== ak) return `${at}: expected ${show(expected)}, got ${show(actual)}`;
  if (ek === 'array') {
    const e = expected as unknown[];
    const a = actual as unknown[];
    const n = Math.min(e.length, a.length);
    for (let i = 0; i < n; i++) {
      const d = jsonDiff(e[i], a[i], `${pointer}/${i}`);
      if (d) return d;
    }
    if (e.length !== a.length) return `${at}: expected ${e.length} items, got ${a.length}`;
    return null;
  }
  if (ek === 'object') {
    const e = expected as object;
    const a = actual as object;
    const aKeys = new Set(Object.keys(a));
    for (const key of Object.keys(e)) {
      const child = `${pointer}/${token(key)}`;
      if (!aKeys.has(key)) return `${child}: expected ${show(ownValue(e, key))}, got (absent)`;
      const d = jsonDiff(ownValue(e, key), ownValue(a, key), child);
      if (d) return d;
    }
    const eKeys = new Set(Object.keys(e));
    for (const key of aKeys) {
      if (!eKeys.has(key)) return `${pointer}/${token(key)}: expected (absent), got ${show(ownValue(a, key))}`;
    }
    return null;
  }
  // number, string, boolean, null, undefined
  return Object.is(expected, actual) || expected === actual ? null : `${at}: expected ${show(expected)}, got ${show(actual)}`;
}
