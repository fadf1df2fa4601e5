// Tool outputSchemas: compiled by their own dialect per agent, failures returned (never thrown), cached
// per tool, and a duplicate `$id` across tools handled.
import { describe, expect, test } from 'vitest';
import { createSchemaService, sdkSchemaSource } from '../../harness/schemas/index.ts';
import { OutputSchemaCompiler } from '../../harness/schemas/output.ts';
import { capture } from './helpers.ts';

const report2020 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $ref: '#/$defs/report_output',
  $defs: {
    report_output: {
      type: 'object',
      properties: { status: { const: 'completed' }, impressions: { type: 'integer' }, day: { type: 'string', format: 'date' } },
      required: ['status', 'impressions'],
      additionalProperties: false,
    },
  },
};

describe('compileOutputSchema', () => {
  test('a 2020-12 schema (the dialect also when $schema is absent) compiles and validates', () => {
    const c = new OutputSchemaCompiler();
    expect(c.compile('get_report', report2020)).toEqual({ ok: true });
    expect(c.validate('get_report', report2020, { status: 'completed', impressions: 3, day: '2026-01-01' })).toEqual({ errors: [] });
    expect(c.validate('get_report', report2020, { status: 'completed', impressions: 3, day: 'soon', more: 1 })).toEqual({
      errors: [
        { pointer: '/more', keyword: 'additionalProperties', expected: "no additional property 'more'", found: '1' },
        { pointer: '/day', keyword: 'format', expected: 'format date', found: '"soon"' },
      ],
    });
    // No $schema: 2020-12, so `prefixItems` is a keyword (draft-07 would ignore it).
    const bare = { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } } };
    expect(c.compile('bare', bare)).toEqual({ ok: true });
    expect(c.validate('bare', bare, { pair: ['a', 'b'] })).toEqual({
      errors: [{ pointer: '/pair/1', keyword: 'type', expected: 'type integer', found: '"b"' }],
    });
  });

  test('a draft-07 schema compiles under draft-07 (definitions, not $defs)', () => {
    const c = new OutputSchemaCompiler();
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { n: { $ref: '#/definitions/count' } },
      definitions: { count: { type: 'integer', minimum: 0 } },
    };
    expect(c.compile('count', draft07)).toEqual({ ok: true });
    expect(c.validate('count', draft07, { n: -1 })).toEqual({
      errors: [{ pointer: '/n', keyword: 'minimum', expected: 'minimum 0', found: '-1' }],
    });
  });

  test('an $id Ajv rejects (my_tool:output) is ok:false with a message naming it; other tools still compile', () => {
    const c = new OutputSchemaCompiler();
    const bad = { $id: 'my_tool:output', type: 'object', properties: { a: { type: 'string' } } };
    const result = c.compile('my_tool', bad);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/\$id "my_tool:output" is not a URI Ajv accepts \(URI scheme is malformed\.\)/);
    expect(c.validate('my_tool', bad, {})).toEqual({ skip: expect.stringContaining('was not compiled') });
    expect(c.compile('other', report2020)).toEqual({ ok: true });
  });

  test('an unknown $schema dialect is ok:false', () => {
    const c = new OutputSchemaCompiler();
    for (const $schema of ['http://json-schema.org/draft-04/schema#', 'https://example.com/my-dialect', 42]) {
      const result = c.compile(`t${String($schema)}`, { $schema, type: 'object' });
      expect(result).toEqual({ ok: false, message: expect.stringContaining('unsupported $schema') });
    }
  });

  test('a root that is not an object schema is ok:false', () => {
    const c = new OutputSchemaCompiler();
    expect(c.compile('a', [])).toEqual({ ok: false, message: 'outputSchema is not a JSON Schema object (found an array)' });
    expect(c.compile('b', true)).toEqual({ ok: false, message: 'outputSchema is not a JSON Schema object (found boolean)' });
    expect(c.compile('c', null)).toEqual({ ok: false, message: 'outputSchema is not a JSON Schema object (found null)' });
    // Compiles, but MCP wants root type object: reported, and instances can still be checked.
    const stringRoot = { type: 'string' };
    expect(c.compile('d', stringRoot)).toEqual({
      ok: false,
      message: 'outputSchema compiles but has root type "string"; MCP requires root type "object"',
    });
    expect(c.validate('d', stringRoot, 'x')).toEqual({ errors: [] });
    expect(c.compile('e', { type: 'object', properties: { a: { type: 'nonsense' } } })).toEqual({
      ok: false,
      message: expect.stringMatching(/^outputSchema does not compile under 2020-12: schema is invalid/),
    });
  });

  test('the same $id advertised by two tools: both compile, each validates by its own schema', () => {
    const c = new OutputSchemaCompiler();
    const one = { $id: 'https://seller.example/schemas/output', type: 'object', required: ['a'] };
    const two = { $id: 'https://seller.example/schemas/output', type: 'object', required: ['b'] };
    expect(c.compile('one', one)).toEqual({ ok: true });
    expect(c.compile('two', two)).toEqual({ ok: true });
    expect(c.validate('one', one, { a: 1 })).toEqual({ errors: [] });
    expect(c.validate('two', two, { a: 1 })).toEqual({ errors: [expect.objectContaining({ expected: "required property 'b'" })] });
    // Nested $ids shared by two tools, too.
    const nested = (t: string) => ({
      type: 'object',
      properties: { x: { $ref: 'https://seller.example/item' } },
      $defs: { item: { $id: 'https://seller.example/item', type: t } },
    });
    const n1 = nested('string');
    const n2 = nested('number');
    expect(c.compile('n1', n1)).toEqual({ ok: true });
    expect(c.compile('n2', n2)).toEqual({ ok: true });
    expect(c.validate('n1', n1, { x: 'a' })).toEqual({ errors: [] });
    expect(c.validate('n2', n2, { x: 1 })).toEqual({ errors: [] });
    expect(c.validate('n2', n2, { x: 'a' })).toEqual({ errors: [expect.objectContaining({ pointer: '/x', expected: 'type number' })] });
  });

  test('compiled once per tool; a different schema object for the tool recompiles', () => {
    const c = new OutputSchemaCompiler();
    const s1 = { type: 'object', required: ['a'] };
    c.compile('t', s1);
    expect(c.validate('t', s1, {})).toHaveProperty('errors.0.expected', "required property 'a'");
    const s2 = { type: 'object', required: ['b'] };
    expect(c.validate('t', s2, {})).toHaveProperty('errors.0.expected', "required property 'b'");
  });

  test('hostile schemas: literal __proto__ keys, huge schemas, never a throw or pollution', () => {
    const c = new OutputSchemaCompiler();
    const proto = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"string"}},"__proto__":{"polluted":true}}',
    ) as unknown;
    expect(() => c.compile('proto', proto)).not.toThrow();
    expect(() => c.validate('proto', proto, JSON.parse('{"__proto__":1}'))).not.toThrow();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 200; i++) deep = { type: 'object', properties: { a: deep } };
    expect(c.compile('deep', deep)).toEqual({ ok: false, message: expect.stringContaining('too large to compile') });
  });
});

describe('through the SchemaService (one compiler per agent)', () => {
  test('two agents do not share output schema state', async () => {
    const a = await createSchemaService(capture(), sdkSchemaSource());
    const b = await createSchemaService(capture(), sdkSchemaSource());
    const sa = { type: 'object', required: ['a'] };
    const sb = { type: 'object', required: ['b'] };
    expect(a.compileOutputSchema('t', sa)).toEqual({ ok: true });
    expect(b.compileOutputSchema('t', sb)).toEqual({ ok: true });
    expect(a.validateOutput('t', sa, { a: 1 })).toEqual({ errors: [] });
    expect(b.validateOutput('t', sb, { a: 1 })).toHaveProperty('errors.0.expected', "required property 'b'");
  });
});
