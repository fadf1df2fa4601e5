// Ajv errors → SchemaError (pure): pointers, wording, bounded `found`, the 5-error cap, oneOf branches.
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { boundSchemaErrors, jsonPreview, MAX_ERRORS, toSchemaErrors, valueAt } from '../../harness/schemas/errors.ts';

const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
function errorsFor(schema: object, data: unknown) {
  const validate = ajv.compile(schema);
  expect(validate(data)).toBe(false);
  return toSchemaErrors(validate.errors, data);
}

describe('toSchemaErrors', () => {
  test('required, type, enum, const, additionalProperties in words', () => {
    const schema = {
      type: 'object',
      required: ['status'],
      additionalProperties: false,
      properties: { status: { enum: ['a', 'b'] }, n: { type: 'string' }, k: { const: 'x' } },
    };
    expect(errorsFor(schema, { n: 1, k: 'y', extra: [1, 2] })).toEqual([
      { pointer: '/', keyword: 'required', expected: "required property 'status'", found: '{"n":1,"k":"y","extra":[1,2]}' },
      { pointer: '/extra', keyword: 'additionalProperties', expected: "no additional property 'extra'", found: '[1,2]' },
      { pointer: '/n', keyword: 'type', expected: 'type string', found: '1' },
      { pointer: '/k', keyword: 'const', expected: 'constant "x"', found: '"y"' },
    ]);
    expect(errorsFor(schema, { status: 'c' })[0]).toEqual({ pointer: '/status', keyword: 'enum', expected: 'one of [a,b]', found: '"c"' });
  });

  test('pointers escape ~ and / in property names', () => {
    const errs = errorsFor({ type: 'object', properties: { 'a/b~c': { type: 'string' } } }, { 'a/b~c': 1 });
    expect(errs[0]?.pointer).toBe('/a~1b~0c');
  });

  test(`at most ${MAX_ERRORS} errors, then one "more" entry with the count`, () => {
    const schema = { type: 'array', items: { type: 'string' } };
    const errs = errorsFor(schema, [1, 2, 3, 4, 5, 6, 7, 8]);
    expect(errs).toHaveLength(MAX_ERRORS + 1);
    expect(errs[MAX_ERRORS]).toEqual({
      pointer: '/',
      keyword: 'more',
      expected: `at most ${MAX_ERRORS} errors listed`,
      found: '3 more errors not shown',
    });
  });

  test(`boundSchemaErrors: the same ${MAX_ERRORS} errors, the rest as an omitted count (absent when none)`, () => {
    const validate = ajv.compile({ type: 'array', items: { type: 'string' } });
    const data = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(validate(data)).toBe(false);
    const bounded = boundSchemaErrors(validate.errors, data);
    expect(bounded).toEqual({ errors: toSchemaErrors(validate.errors, data).slice(0, MAX_ERRORS), omitted: 3 });
    expect(bounded.errors.map((e) => e.pointer)).toEqual(['/0', '/1', '/2', '/3', '/4']);
    expect(validate(['a', 1])).toBe(false);
    expect(boundSchemaErrors(validate.errors, ['a', 1])).toEqual({
      errors: [{ pointer: '/1', keyword: 'type', expected: 'type string', found: '1' }],
    });
    expect(boundSchemaErrors(null, data)).toEqual({ errors: [] });
  });

  test('a failed oneOf keeps the closest branch only and says which', () => {
    const schema = {
      oneOf: [
        {
          type: 'object',
          required: ['items'],
          properties: { items: { type: 'array', items: { type: 'object', required: ['id', 'action'] } } },
        },
        { type: 'object', required: ['errors'] },
      ],
    };
    const errs = errorsFor(schema, { items: [{}] });
    expect(errs.map((e) => `${e.pointer} ${e.expected}`)).toEqual([
      "/items/0 required property 'id'",
      "/items/0 required property 'action'",
      '/ exactly one oneOf branch to match (none matched; errors shown for the closest, branch 0)',
    ]);
  });
});

describe('found values', () => {
  test('jsonPreview cuts long values without serializing all of them', () => {
    const big = { list: Array.from({ length: 100_000 }, (_, i) => ({ i, s: 'x'.repeat(50) })) };
    const text = jsonPreview(big);
    expect(text.length).toBeLessThanOrEqual(121);
    expect(text.endsWith('…')).toBe(true);
    expect(jsonPreview(undefined)).toBe('absent');
    expect(jsonPreview('a'.repeat(500)).length).toBe(121);
  });

  test('valueAt reads own properties only, literal "__proto__" keys included', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":true},"a":[{"b":1}]}') as unknown;
    expect(valueAt(hostile, '/__proto__/polluted')).toBe(true);
    expect(valueAt(hostile, '/a/0/b')).toBe(1);
    expect(valueAt({}, '/constructor')).toBeUndefined();
    expect(valueAt({}, '/toString')).toBeUndefined();
    expect(valueAt([1], '/01')).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('closest oneOf branch', () => {
  const response = {
    oneOf: [
      {
        type: 'object',
        required: ['id', 'items'],
        properties: { id: { type: 'string' }, items: { type: 'array' }, status: { enum: ['completed'] } },
      },
      { type: 'object', required: ['errors'], not: { required: ['id'] } },
      { type: 'object', required: ['status', 'task_id'], properties: { status: { const: 'submitted' } } },
    ],
  };

  test('a discriminator mismatch rules a branch out, even when it has fewer errors', () => {
    const errs = errorsFor(response, { status: 'completed', id: 'x' });
    expect(errs.map((e) => `${e.pointer} ${e.keyword}`)).toEqual(['/ required', '/ oneOf']);
    expect(errs[0]?.expected).toBe("required property 'items'");
  });

  test('wrong field types still point into the intended branch', () => {
    const errs = errorsFor(response, { id: 1, items: {} });
    expect(errs.map((e) => `${e.pointer} ${e.expected}`)).toEqual([
      '/id type string',
      '/items type array',
      '/ exactly one oneOf branch to match (none matched; errors shown for the closest, branch 0)',
    ]);
  });
});

describe('hostile error lists', () => {
  const anyOfItems = {
    type: 'object',
    properties: {
      xs: {
        type: 'array',
        items: {
          anyOf: [
            { type: 'object', required: ['a'] },
            { type: 'string', maxLength: 1 },
          ],
        },
      },
    },
  };

  test('a branch choice at /xs/1 does not reach into /xs/10 (instance paths are compared by segment)', () => {
    const xs: unknown[] = Array.from({ length: 11 }, () => ({ a: 1 }));
    xs[1] = {};
    xs[10] = 'abc';
    const errs = errorsFor(anyOfItems, { xs });
    expect(errs.map((e) => `${e.pointer} ${e.keyword}`)).toEqual(['/xs/1 required', '/xs/1 anyOf', '/xs/10 maxLength', '/xs/10 anyOf']);
  });

  // 100k items: a quadratic conversion would run for hours and hit the test timeout; no timed assertion.
  test('100k failing anyOf items: converted, the first ones analysed, the rest counted', () => {
    const xs = Array.from({ length: 100_000 }, () => 5);
    const validate = ajv.compile(anyOfItems);
    expect(validate({ xs })).toBe(false);
    const errs = toSchemaErrors(validate.errors, { xs });
    expect(errs).toHaveLength(MAX_ERRORS + 1);
    expect(errs[MAX_ERRORS]?.keyword).toBe('more');
    expect(errs[MAX_ERRORS]?.found).toMatch(/^\d+ more errors not shown \(Ajv reported 300000; the first 1000 were analysed\)$/);
    const bounded = boundSchemaErrors(validate.errors, { xs });
    expect(bounded.errors).toHaveLength(MAX_ERRORS);
    expect(`${bounded.omitted} more errors not shown`).toBe(errs[MAX_ERRORS]?.found.split(' (')[0]);
  });
});
