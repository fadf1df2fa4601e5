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
 * Iterative (an explicit stack, no recursion): a seller's answer nested 200k levels deep is copied like
 * any other instead of overflowing the call stack. A value that contains itself becomes '[Circular]'.
 */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  const usable = usableSecrets(secrets);
  const text = (s: string): string => (usable.length ? redactWith(s, usable) : s);
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? text(value) : value;

  interface Frame {
    source: Record<string, unknown>;
    copy: Record<string, unknown>;
    /** Object keys (undefined for an array: indices up to `length`). */
    keys: string[] | undefined;
    length: number;
    next: number;
  }
  const ancestors = new Set<object>();
  const open = (source: object): Frame => {
    ancestors.add(source);
    const keys = Array.isArray(source) ? undefined : Object.keys(source);
    const copy = (Array.isArray(source) ? new Array<unknown>(source.length) : {}) as Record<string, unknown>;
    return { source: source as Record<string, unknown>, copy, keys, length: keys?.length ?? (source as unknown[]).length, next: 0 };
  };
  const put = (frame: Frame, key: string, item: unknown): void => {
    if (!frame.keys) {
      frame.copy[key] = item;
      return;
    }
    Object.defineProperty(frame.copy, text(key), { value: item, enumerable: true, writable: true, configurable: true });
  };

  const root = open(value);
  const stack: Frame[] = [root];
  while (stack.length) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.length) {
      ancestors.delete(frame.source);
      stack.pop();
      continue;
    }
    const i = frame.next++;
    const key = frame.keys ? frame.keys[i]! : String(i);
    const item = frame.source[key];
    if (item !== null && typeof item === 'object') {
      if (ancestors.has(item)) {
        put(frame, key, '[Circular]');
        continue;
      }
      const child = open(item);
      put(frame, key, child.copy);
      stack.push(child);
    } else if (item === undefined && frame.keys) {
      continue; // as JSON would drop it
    } else {
      put(frame, key, typeof item === 'string' ? text(item) : item);
    }
  }
  return root.copy;
}

function redactWith(text: string, usable: readonly string[]): string {
  let out = text;
  for (const secret of usable) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
