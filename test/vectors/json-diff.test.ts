// The runner's structural deep-equal over parsed JSON.
import { describe, expect, test } from 'vitest';
import { jsonDiff } from '../../harness/vectors/json-diff.ts';

describe('jsonDiff', () => {
  test('equal JSON → null, key order irrelevant', () => {
    expect(jsonDiff({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1, { b: null }] })).toBeNull();
    expect(jsonDiff(null, null)).toBeNull();
  });

  test('first difference with pointer, expected and got', () => {
    expect(jsonDiff({ a: { b: 1 } }, { a: { b: 2 } })).toBe('/a/b: expected 1, got 2');
    expect(jsonDiff({ a: 1 }, {})).toBe('/a: expected 1, got (absent)');
    expect(jsonDiff({}, { z: true })).toBe('/z: expected (absent), got true');
    expect(jsonDiff([1, 2], [1])).toBe('(root): expected 2 items, got 1');
    expect(jsonDiff({ a: 1 }, null)).toBe('(root): expected {"a":1}, got null');
    expect(jsonDiff({ a: 1 }, [1])).toBe('(root): expected {"a":1}, got [1]');
    expect(jsonDiff('1', 1)).toBe('(root): expected "1", got 1');
    expect(jsonDiff({ 'a/b': 1 }, { 'a/b': 2 })).toBe('/a~1b: expected 1, got 2');
  });

  test('__proto__ is an ordinary own key on both sides', () => {
    const withProto = JSON.parse('{"__proto__":{"isAdmin":true},"s":1}') as unknown;
    const other = JSON.parse('{"__proto__":{"isAdmin":false},"s":1}') as unknown;
    expect(jsonDiff(withProto, JSON.parse('{"s":1,"__proto__":{"isAdmin":true}}'))).toBeNull();
    expect(jsonDiff(withProto, other)).toBe('/__proto__/isAdmin: expected true, got false');
    expect(jsonDiff(withProto, { s: 1 })).toBe('/__proto__: expected {"isAdmin":true}, got (absent)');
    // an object whose prototype was set (not an own key) is not equal to one with the own key
    expect(jsonDiff(withProto, Object.assign(Object.create({ isAdmin: true }) as object, { s: 1 }))).not.toBeNull();
  });

  test('long values are shortened', () => {
    const d = jsonDiff('x'.repeat(1000), 'y');
    expect(d!.length).toBeLessThan(200);
    expect(d).toContain('1000 chars');
  });
});
