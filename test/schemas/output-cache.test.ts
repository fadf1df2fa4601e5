// The compiled-outputSchema cache every OutputSchemaCompiler of a thread shares (output.ts): a fleet whose
// sellers advertise the same schemas compiles each once per judge worker — and what one agent gets from it
// depends only on the content of its own schema, the cache stays within its bounds, and a step left out of
// an agent's retry stays out even when another agent compiled the same schema since.
import { describe, expect, test } from 'vitest';
import { describeSchemaStep, OutputSchemaCache, OutputSchemaCompiler, sharedOutputSchemas } from '../../harness/schemas/output.ts';

const schemaOf = (field: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: [field],
  properties: { [field]: { type: 'string' } },
  ...extra,
});

function compiler(cache: OutputSchemaCache, steps: string[] = [], blocked?: (s: { action: string; tool: string }) => string | undefined) {
  return new OutputSchemaCompiler({ cache, onStep: (s) => steps.push(describeSchemaStep(s)), ...(blocked ? { blocked } : {}) });
}

describe('the shared outputSchema cache', () => {
  test('compilers share by default; the same content compiles once for every agent, other content never leaks', () => {
    expect(new OutputSchemaCompiler()['cache']).toBe(sharedOutputSchemas);
    const cache = new OutputSchemaCache();
    const stepsA: string[] = [];
    const stepsB: string[] = [];
    const a = compiler(cache, stepsA);
    const b = compiler(cache, stepsB);
    // Same content, other key order and another tool name: one compile, in the first agent.
    expect(a.compile('t', schemaOf('x'))).toEqual({ ok: true });
    expect(b.compile('other', { properties: { x: { type: 'string' } }, required: ['x'], type: 'object' })).toEqual({ ok: true });
    expect(stepsA).toEqual(['compiling the outputSchema of t']);
    expect(stepsB).toEqual([]);
    expect(cache.size.entries).toBe(1);
    // Other content: each agent's verdicts follow its own schema.
    const onlyB = schemaOf('y');
    expect(b.validate('t', onlyB, { x: 'a' })).toEqual({
      errors: [expect.objectContaining({ pointer: '/', keyword: 'required', expected: "required property 'y'" })],
    });
    expect(a.validate('t', schemaOf('x'), { x: 'a' })).toEqual({ errors: [] });
    // A schema whose root $id another agent's schema declared too compiles for each, each by its own content.
    const idA = schemaOf('x', { $id: 'https://seller.example/out.json' });
    const idB = schemaOf('z', { $id: 'https://seller.example/out.json' });
    expect(a.validate('t', idA, { z: 'a' })).toHaveProperty('errors.0.expected', "required property 'x'");
    expect(b.validate('t', idB, { z: 'a' })).toEqual({ errors: [] });
    // Failures are content too: the same broken schema gives every agent the same finding.
    const broken = { type: 'objekt' };
    const fa = a.compile('t', broken);
    expect(fa.ok).toBe(false);
    expect(b.compile('t', broken)).toEqual(fa);
  });

  test('bounded: full of entries or of schema text it starts again; a schema heavier than the bound is never shared', () => {
    const cache = new OutputSchemaCache(3, 2_000);
    const steps: string[] = [];
    const c = compiler(cache, steps);
    for (const f of ['a', 'b', 'c']) expect(c.compile('t', schemaOf(f))).toEqual({ ok: true });
    expect(cache.size.entries).toBe(3);
    expect(c.compile('t', schemaOf('d'))).toEqual({ ok: true });
    expect(cache.size.entries).toBe(1); // dropped whole, Ajv instances included, then 'd' added
    // The agent keeps what it used: no recompile of 'a' for it, and its validator still works.
    const before = steps.length;
    expect(c.validate('t', schemaOf('a'), {})).toHaveProperty('errors.0.expected', "required property 'a'");
    expect(steps.slice(before).filter((s) => s.startsWith('compiling'))).toEqual([]);
    // Weight: canonical JSON characters.
    const big = schemaOf('e', { description: 'x'.repeat(1_500) });
    expect(c.compile('t', big)).toEqual({ ok: true });
    expect(cache.size.weight).toBeLessThanOrEqual(2_000);
    const heavy = schemaOf('f', { description: 'x'.repeat(5_000) });
    const other = compiler(cache);
    const held = cache.size;
    expect(other.compile('t', heavy)).toEqual({ ok: true });
    expect(cache.size).toEqual(held);
    expect(other.validate('t', heavy, {})).toHaveProperty('errors.0.expected', "required property 'f'");
  });

  test('a compile left out of an agent’s retry stays out, though another agent compiled the same schema since', () => {
    const cache = new OutputSchemaCache();
    const schema = schemaOf('x');
    expect(compiler(cache).compile('t', schema)).toEqual({ ok: true });
    const reason = 'your outputSchema of t took longer than 5000 ms to compile';
    const retry = compiler(cache, [], (s) => (s.action === 'compile' && s.tool === 't' ? reason : undefined));
    expect(retry.compile('t', schema)).toEqual({ ok: false, message: reason });
    expect(retry.validate('t', schema, {})).toEqual({ skip: expect.stringContaining(reason) });
  });
});
