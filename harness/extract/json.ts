// Tiny helpers for reading seller JSON safely. Seller values are `unknown`; we read own properties only
// (a JSON-parsed `"__proto__"` key is an own data property and must be read as data, never as the
// prototype), and never copy seller objects into ours.

export type JsonObject = Record<string, unknown>;

/** A non-null, non-array object (what the spec's code calls "a non-array object"). */
export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The value of an own property, or undefined (inherited properties are never seller data). */
export function own(v: unknown, key: string): unknown {
  if (v === null || typeof v !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(v, key) ? Object.getOwnPropertyDescriptor(v, key)?.value : undefined;
}

export function hasOwn(v: unknown, key: string): boolean {
  return v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, key);
}

/** Escape one JSON-pointer reference token (RFC 6901). */
export function pointerToken(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}
