// uniqueItems in linear time: Ajv's own keyword is O(n²) on object items, so a hostile answer with
// 100k distinct objects kept the synchronous validator busy for minutes.
import { describe, expect, test } from 'vitest';
import { OutputSchemaCompiler } from '../../harness/schemas/output.ts';
import { canonicalKey } from '../../harness/schemas/unique-items.ts';

const schema = { type: 'object', properties: { xs: { type: 'array', uniqueItems: true } } };

describe('uniqueItems', () => {
  // Ajv's own pairwise uniqueItems would take minutes on 100k objects and hit the test timeout.
  test('100k distinct objects validate (linear uniqueItems)', () => {
    const compiler = new OutputSchemaCompiler();
    expect(compiler.compile('t', schema)).toEqual({ ok: true });
    const xs = Array.from({ length: 100_000 }, (_, i) => ({ i }));
    expect(compiler.validate('t', schema, { xs })).toEqual({ errors: [] });
  });

  test('JSON equality: key order ignored, types distinct; the error names both items', () => {
    const compiler = new OutputSchemaCompiler();
    expect(compiler.validate('t', schema, { xs: [1, '1', [1], { 1: 1 }, null, 'null', true] })).toEqual({ errors: [] });
    expect(compiler.validate('t', schema, { xs: [{ a: 1, b: [2] }, 3, { b: [2], a: 1 }] })).toEqual({
      errors: [
        {
          pointer: '/xs',
          keyword: 'uniqueItems',
          expected: 'unique items (items 0 and 2 are equal)',
          found: '[{"a":1,"b":[2]},3,{"b":[2],"a":1}]',
        },
      ],
    });
    expect(compiler.validate('t', { ...schema, properties: { xs: { type: 'array', uniqueItems: false } } }, { xs: [1, 1] })).toEqual({
      errors: [],
    });
  });

  test('canonicalKey: sorted keys, own "__proto__" keys as data, deep nesting without recursion', () => {
    expect(canonicalKey({ b: 1, a: [true, null, 'x'] })).toBe('{"a":[true,null,"x"],"b":1}');
    expect(canonicalKey(JSON.parse('{"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1}}');
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(canonicalKey(deep)).toHaveLength(400_001);
  });
});
