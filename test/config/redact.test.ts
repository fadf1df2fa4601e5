// redactDeep on what a hostile seller can send: nesting far deeper than the call stack, values that
// repeat, contain themselves, or hide a secret in a key — every secret replaced, the input untouched.
import { describe, expect, test } from 'vitest';
import { redactDeep, REDACTED } from '../../harness/config/redact.ts';

const SECRET = 'tok-deep-secret-42';

/** `[{"a":[{"a":…SECRET…}]}]`, `depth` levels, built without recursion. */
function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v, [`k-${SECRET}`]: i } : [v, `x${SECRET}x`];
  return v;
}

describe('redactDeep', () => {
  test('structuredContent nested 200k levels deep is copied and redacted at every level, without overflowing the stack', () => {
    const depth = 200_000;
    const input = nested(depth, SECRET);
    const out = redactDeep(input, [SECRET]);
    let level: unknown = out;
    let seen = 0;
    while (level !== null && typeof level === 'object') {
      if (Array.isArray(level)) {
        expect(level[1]).toBe(`x${REDACTED}x`);
        level = level[0];
      } else {
        const keys = Object.keys(level);
        expect(keys).toEqual(['a', `k-${REDACTED}`]);
        level = (level as { a: unknown }).a;
      }
      seen++;
    }
    expect(seen).toBe(depth);
    expect(level).toBe(REDACTED);
    // The input still holds the secret (a copy, never a mutation).
    expect(Object.keys(input as object)).toEqual(['a', `k-${SECRET}`]);
  });

  test('without a usable secret the copy is the same JSON, deep or not', () => {
    const input = nested(2_000, 'leaf'); // toEqual itself recurses
    const out = redactDeep(input, ['ab']);
    expect(out).not.toBe(input);
    expect(out).toEqual(input);
  });

  test('a shared (non-circular) value is copied at each place; a value containing itself becomes [Circular]', () => {
    const shared = { s: SECRET };
    const loop: Record<string, unknown> = { name: SECRET };
    loop['self'] = { back: loop };
    const out = redactDeep({ one: shared, two: [shared, shared], loop }, [SECRET]);
    expect(out).toEqual({
      one: { s: REDACTED },
      two: [{ s: REDACTED }, { s: REDACTED }],
      loop: { name: REDACTED, self: { back: '[Circular]' } },
    });
  });

  test('undefined members are dropped from objects and kept in arrays (as JSON would write them: null); scalars pass through', () => {
    const out = redactDeep({ gone: undefined, list: [undefined, 1, true, null, `${SECRET}`] }, [SECRET]);
    expect(JSON.stringify(out)).toBe(`{"list":[null,1,true,null,"${REDACTED}"]}`);
    expect(Object.keys(out as object)).toEqual(['list']);
    expect(redactDeep(`a ${SECRET}`, [SECRET])).toBe(`a ${REDACTED}`);
    expect(redactDeep(7, [SECRET])).toBe(7);
    expect(redactDeep(null, [SECRET])).toBe(null);
  });

  test('__proto__ stays an own data key at any depth', () => {
    const input = JSON.parse(`[{"__proto__":{"polluted":"${SECRET}"}}]`) as unknown;
    const out = redactDeep(input, [SECRET]) as Array<Record<string, unknown>>;
    expect(JSON.stringify(out)).toBe(`[{"__proto__":{"polluted":"${REDACTED}"}}]`);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(out[0])).toBe(Object.prototype);
  });
});
