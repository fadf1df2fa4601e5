// Secret redaction: every header / env value resolved from the config is replaced wherever it could
// surface (recorded results, failure messages, stderr, junk lines, reports).

export const REDACTED = '[REDACTED]';

/**
 * Values shorter than this are not treated as secrets: redacting "1" or "on" (typical env flags)
 * would mangle every recorded payload while protecting nothing.
 */
export const MIN_SECRET_LENGTH = 4;

/** The secrets worth redacting, longest first so a secret containing another is replaced whole. */
export function usableSecrets(secrets: readonly string[]): string[] {
  const unique = new Set(secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH));
  return [...unique].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of usableSecrets(secrets)) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/**
 * A redacted deep copy of a JSON value (strings and object keys). Never mutates its input; keys such as
 * `__proto__` are kept as own data properties (defineProperty), never assigned through the prototype.
 */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  const usable = usableSecrets(secrets);
  const seen = new WeakSet<object>();
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return usable.length ? redactWith(v, usable) : v;
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return '[Circular]';
    seen.add(v);
    try {
      if (Array.isArray(v)) return v.map(visit);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v)) {
        const item = (v as Record<string, unknown>)[key];
        if (item === undefined) continue; // as JSON would drop it
        Object.defineProperty(out, usable.length ? redactWith(key, usable) : key, {
          value: visit(item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return visit(value);
}

function redactWith(text: string, usable: readonly string[]): string {
  let out = text;
  for (const secret of usable) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
