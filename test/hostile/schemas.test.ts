// Hostile battery · seller-controlled schemas and schema judging: an outputSchema whose `pattern`
// backtracks catastrophically, one that refers to itself without end, `$ref`s to another host and to
// file:///etc/passwd, `"$async": true`, a tools/list of 2000 tools with large outputSchemas, and 120k
// empty products that fail the AdCP schema. Judging must stay within the agent's budget and memory, never
// fetch or read what a `$ref` names, and fail the schema check naming the problem. Each runs alone: one
// that stalls judging must not take the others' verdicts with it.
import { describe, expect, test } from 'vitest';
import { agentOf, expectContained, expectFinding, runHostile, stdio } from './battery.ts';

const alone = (behaviour: string, probes?: Array<{ tool: string; arguments: Record<string, unknown> }>) =>
  runHostile(behaviour, [stdio(behaviour, probes ? { probes } : {})]);

describe.concurrent('seller-controlled schemas', () => {
  test('redos-pattern: a catastrophic `pattern` is judged in bounded time, and named', async () => {
    const run = await alone('redos-pattern');
    expectContained(run);
    expectFinding(run, 'redos-pattern', 'schema.output-conformance', /pattern/);
  });

  test('recursive-ref: a schema that refers to itself without end is judged in bounded time, and named', async () => {
    const run = await alone('recursive-ref');
    expectContained(run);
    expect(agentOf(run, 'recursive-ref').incomplete).toBeNull();
    // Its answer nests 2000 levels deep; the text mirror is the same data, and compares equal at any depth.
    expect(agentOf(run, 'recursive-ref').outcomes.find((o) => o.check === 'envelope.text-mirror')?.status).toBe('pass');
    // Not verifiable, and said so: never a pass.
    expectFinding(run, 'recursive-ref', 'schema.output-conformance', /Maximum call stack|recurs/i, 'untested');
  });

  test('remote-ref: a $ref to another host is refused, never fetched (the trap host sees nothing)', async () => {
    const run = await alone('remote-ref');
    expectContained(run);
    expectFinding(run, 'remote-ref', 'schema.output-schema', /\$ref|remote|resolve/i);
  });

  test('file-ref: a $ref to file:///etc/passwd is refused, never read', async () => {
    const run = await alone('file-ref');
    expectContained(run);
    const o = expectFinding(run, 'file-ref', 'schema.output-schema', /\$ref|file:|resolve/i);
    expect(JSON.stringify(run.report)).not.toMatch(/root:x:0:0/);
    expect(o).toBeDefined();
  });

  test('deep-schema: an outputSchema nested 10k levels deep is judged in bounded time, and not passed', async () => {
    const run = await alone('deep-schema');
    expectContained(run);
    const o = agentOf(run, 'deep-schema').outcomes.find((x) => x.check === 'schema.output-schema');
    expect(o?.status).toMatch(/fail|untested/);
  });

  test('async-schema: "$async": true is refused with a finding; no unhandled rejection, every report written', async () => {
    const run = await alone('async-schema');
    expectContained(run);
    expectFinding(run, 'async-schema', 'schema.output-schema', /\$async|async/i);
  });

  test('huge-tools-list: 2000 tools with large outputSchemas (12 MB, cap raised) are judged within the agent budget and memory', async () => {
    const run = await runHostile('huge-tools-list', [stdio('huge-tools-list', { maxBytes: 16 * 1024 * 1024 })]);
    expectContained(run);
    expect(agentOf(run, 'huge-tools-list').incomplete).toBeNull();
    expect(agentOf(run, 'huge-tools-list').outcomes.find((o) => o.check === 'transport.tools-list')?.status).toBe('pass');
  });

  test('products-120k: 120k empty products failing the AdCP schema: judged in bounded time, errors capped, named', async () => {
    const run = await alone('products-120k', [{ tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'x' } }]);
    expectContained(run);
    expectFinding(run, 'products-120k', 'schema.adcp-response', /required/);
  });
});
