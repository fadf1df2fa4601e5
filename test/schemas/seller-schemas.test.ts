// Seller-controlled schemas: what is refused before Ajv sees it ($async, references out of the document),
// what is compiled (only called tools, once per content), and the cap on collected errors.
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { capErrorsInCode, ERROR_CAP } from '../../harness/schemas/bounded.ts';
import { createSchemaService, sdkSchemaSource } from '../../harness/schemas/index.ts';
import { describeSchemaStep, OutputSchemaCompiler } from '../../harness/schemas/output.ts';
import { nativePatternsIn, refusalIn } from '../../harness/schemas/seller-schema.ts';
import { capture, exchange } from './helpers.ts';

const called = (...tools: string[]) => new Set(tools);

describe('refused seller schemas', () => {
  test('$async anywhere a schema can be is refused with a finding; the validator is never built', async () => {
    const rejections: unknown[] = [];
    const onRejection = (r: unknown) => rejections.push(r);
    process.on('unhandledRejection', onRejection);
    try {
      const steps: string[] = [];
      const c = new OutputSchemaCompiler({ called: called('t'), onStep: (s) => steps.push(describeSchemaStep(s)) });
      const root = { $async: true, type: 'object', properties: { a: { type: 'string' } } };
      const result = c.compile('t', root);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.message).toMatch(/uses "\$async" at \/: .*returns? a promise/);
      expect(c.validate('t', root, { a: 1 })).toEqual({ skip: expect.stringContaining('$async') });
      const nested = { type: 'object', properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { $async: true, type: 'string' } } };
      expect(refusalIn(nested)).toEqual({ pointer: '/$defs/x/$async', message: expect.stringContaining('"$async" at /$defs/x') });
      // A property called "$async" is a name, not the keyword; `$async: false` is synchronous.
      expect(refusalIn({ type: 'object', properties: { $async: { type: 'boolean' } } })).toBeUndefined();
      expect(refusalIn({ $async: false, type: 'object' })).toBeUndefined();
      await new Promise((r) => setTimeout(r, 20));
      expect(rejections).toEqual([]);
      expect(steps.some((s) => s.startsWith('validating'))).toBe(false);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  test('remote and file: references are refused and named; references inside the document are fine', () => {
    const remote = refusalIn({ type: 'object', properties: { a: { $ref: 'https://evil.example/s.json' } } });
    expect(remote?.message).toMatch(
      /\$ref "https:\/\/evil\.example\/s\.json" at \/properties\/a is a remote reference: the harness never fetches/,
    );
    expect(refusalIn({ type: 'object', $ref: 'file:///etc/passwd' })?.message).toMatch(/is a file: reference/);
    expect(refusalIn({ type: 'object', items: [{ $ref: 'other.json#/x' }] })?.message).toMatch(/other\.json.*outside the schema|remote/);
    expect(refusalIn({ type: 'object', properties: { a: { $dynamicRef: 'https://x.example/y#meta' } } })?.pointer).toBe(
      '/properties/a/$dynamicRef',
    );
    // Local pointers, anchors and embedded resources stay inside.
    expect(
      refusalIn({
        type: 'object',
        properties: { a: { $ref: '#/$defs/x' }, b: { $ref: '#x' } },
        $defs: { x: { $anchor: 'x', type: 'string' } },
      }),
    ).toBeUndefined();
    expect(
      refusalIn({
        $id: 'https://s.example/root.json',
        type: 'object',
        properties: { a: { $ref: 'item.json' } },
        $defs: { i: { $id: 'item.json', type: 'string' } },
      }),
    ).toBeUndefined();
    expect(
      refusalIn({ type: 'object', properties: { a: { $ref: 'item' } }, $defs: { i: { $id: 'item', type: 'string' } } }),
    ).toBeUndefined();
    // A `$ref` in data (enum/const/default/examples) is not a reference.
    expect(refusalIn({ type: 'object', examples: [{ $ref: 'https://x.example' }], default: { $ref: 'file:///x' } })).toBeUndefined();

    const c = new OutputSchemaCompiler({ called: called('t') });
    const result = c.compile('t', { type: 'object', properties: { a: { $ref: 'file:///etc/passwd' } } });
    expect(result).toEqual({ ok: false, message: expect.stringContaining('is a file: reference') });
  });
});

describe('what is compiled', () => {
  test('only called tools are compiled; an uncalled tool is checked without code generation and still fails when broken', () => {
    const steps: string[] = [];
    const c = new OutputSchemaCompiler({ called: called('used'), onStep: (s) => steps.push(describeSchemaStep(s)) });
    const good = { type: 'object', properties: { a: { type: 'string' } } };
    expect(c.compile('unused', good)).toEqual({ ok: true });
    expect(steps).toEqual([]);
    expect(c.compile('used', good)).toEqual({ ok: true });
    expect(steps).toEqual(['compiling the outputSchema of used']);

    const broken: Array<[unknown, RegExp]> = [
      [{ type: 'objekt' }, /does not compile under 2020-12: schema is invalid: .*type/],
      [{ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, /points at nothing/],
      [{ type: 'object', properties: { a: { type: 'string', pattern: '^[a-$' } } }, /not an ECMA-262 regular expression/],
      [{ type: 'object', patternProperties: { '(': {} } }, /patternProperties name "\(" .*not an ECMA-262/],
      [{ $id: 'my_tool:output', type: 'object' }, /\$id "my_tool:output" is not a URI Ajv accepts/],
      [{ type: 'string' }, /is a valid schema but has root type "string"/],
      [{ $async: true, type: 'object' }, /\$async/],
    ];
    for (const [schema, message] of broken) {
      const unused = c.compile('unused-broken', schema);
      expect(unused.ok, JSON.stringify(schema)).toBe(false);
      expect(!unused.ok && unused.message).toMatch(message);
      // The compiler, where the tool was called, agrees that it is broken.
      expect(new OutputSchemaCompiler().compile('x', schema).ok, JSON.stringify(schema)).toBe(false);
    }
    expect(steps.filter((s) => s.startsWith('compiling'))).toHaveLength(1);
  });

  test('schemas are compiled once per content, whatever the tool and key order', () => {
    const steps: string[] = [];
    const c = new OutputSchemaCompiler({ onStep: (s) => steps.push(describeSchemaStep(s)) });
    const make = (reverse: boolean) => {
      const props = { a: { type: 'string' }, b: { type: 'integer' } };
      return reverse ? { properties: props, type: 'object' } : { type: 'object', properties: props };
    };
    for (let i = 0; i < 50; i++) expect(c.compile(`tool_${i}`, make(i % 2 === 0))).toEqual({ ok: true });
    expect(steps.filter((s) => s.startsWith('compiling'))).toHaveLength(1);
    expect(c.validate('tool_7', make(false), { a: 1 })).toEqual({
      errors: [{ pointer: '/a', keyword: 'type', expected: 'type string', found: '1' }],
    });
  });

  test('a pattern the linear engine cannot run is named in the progress step', () => {
    const steps: string[] = [];
    const c = new OutputSchemaCompiler({ onStep: (s) => steps.push(describeSchemaStep(s)) });
    const schema = {
      type: 'object',
      properties: { x: { type: 'string', pattern: '^(?=a)(a+)+$' }, y: { type: 'string', pattern: '^(b+)+$' } },
    };
    expect(nativePatternsIn(schema)).toEqual([{ pattern: '^(?=a)(a+)+$', pointer: '/properties/x/pattern' }]);
    c.validate('t', schema, { x: 'aa', y: 'b' });
    expect(steps).toEqual([
      'compiling the outputSchema of t (pattern "^(?=a)(a+)+$" at /properties/x/pattern)',
      'validating t against its outputSchema (pattern "^(?=a)(a+)+$" at /properties/x/pattern)',
    ]);
  });

  test('a catastrophically backtracking pattern runs in linear time', () => {
    const c = new OutputSchemaCompiler();
    const schema = { type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+$' } } };
    const started = performance.now();
    expect(c.validate('t', schema, { x: `${'a'.repeat(10_000)}b` })).toEqual({
      errors: [expect.objectContaining({ pointer: '/x', keyword: 'pattern' })],
    });
    expect(performance.now() - started).toBeLessThan(10_000); // natively: longer than the age of the universe
  });
});

describe('bounded error collection', () => {
  test('the cap hook finds the statements where Ajv 8 adds errors', () => {
    let caps = 0;
    const ajv = new Ajv({
      allErrors: true,
      code: {
        process: (code) => {
          const out = capErrorsInCode(code);
          caps += out.split('__adcpErrorCap').length - 1;
          return out;
        },
      },
    });
    ajv.compile({
      type: 'object',
      required: ['a'],
      properties: { xs: { type: 'array', items: { $ref: '#/definitions/x' } } },
      definitions: { x: { type: 'object', required: ['b'] } },
    });
    expect(caps).toBeGreaterThanOrEqual(3); // required, type, and the merge after the $ref call
  });

  test('errors from an anyOf branch that is discarded never count against the cap', () => {
    const c = new OutputSchemaCompiler();
    const schema = {
      type: 'object',
      properties: {
        xs: {
          anyOf: [
            { type: 'array', items: { type: 'string' } },
            { type: 'array', items: { type: 'number' } },
          ],
        },
      },
    };
    const numbers = Array.from({ length: ERROR_CAP * 3 }, (_, i) => i);
    expect(c.validate('t', schema, { xs: numbers })).toEqual({ errors: [] });
    const broken = c.validate('t', schema, { xs: [...numbers, 'x'] });
    expect('errors' in broken && broken.errors.length).toBeGreaterThan(0);
  });

  test('few errors are all listed exactly; many stop at the cap, listed from the first and counted as at least the rest', () => {
    const c = new OutputSchemaCompiler();
    const fields = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, { type: 'string' }]));
    const schema = {
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'object', required: Object.keys(fields), properties: fields } } },
    };
    const few = c.validate('t', schema, { items: [{}] });
    expect(few).toEqual({ errors: expect.any(Array), omitted: 35 });
    const started = performance.now();
    const many = c.validate('t', schema, { items: Array.from({ length: 150_000 }, () => ({})) });
    expect(performance.now() - started).toBeLessThan(20_000); // was 2.6 GB and minutes
    expect(many).toEqual({
      errors: [{ pointer: '/items/0', keyword: 'required', expected: "required property 'f0'", found: '{}' }],
      omitted: ERROR_CAP - 1,
    });
  });

  test('120k empty products failing the AdCP schema: bounded, the first error named', async () => {
    const products = { products: Array.from({ length: 120_000 }, () => ({})) };
    const service = await createSchemaService(capture({ exchanges: [exchange('get_products', products)] }), sdkSchemaSource());
    expect(service.compileAdcpSchemas()).toBeGreaterThan(0);
    const started = performance.now();
    const result = service.validateAdcpResponse('get_products', products);
    expect(performance.now() - started).toBeLessThan(30_000); // 16k took 14 s and 120k never finished before the cap
    expect(result).toEqual({ errors: [expect.objectContaining({ pointer: '/products/0', keyword: 'required' })], omitted: ERROR_CAP - 1 });
  });
});
