// The two common MCP SDK traps, live against a seller built on McpServer with zod schemas
// (test/fixtures/servers/mcpserver-traps.mjs): the diagnosis naming the trap and the fix hint reach the
// probe output, the terminal summary, summary.md and report.json.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { catalog } from '../../harness/checks/catalog.ts';
import { readReport, ROOT, runCli, tempDirs, type CliResult } from '../run/cli.helpers.ts';

const tmp = tempDirs();
const seller = (...extra: string[]) =>
  [process.execPath, join(ROOT, 'test', 'fixtures', 'servers', 'mcpserver-traps.mjs'), ...extra].map((w) => `'${w}'`).join(' ');
const fixOf = (id: string) => catalog.find((c) => c.id === id)!.fix;
/** Markdown as summary.md escapes it, for comparing plain text against it. */
const plain = (md: string) => md.replace(/\\(.)/g, '$1');

const INPUT_TRAP = 'The MCP SDK rejected the arguments against your inputSchema before your handler ran';
const ENUM_HINT = 'a zod enum rejects at the SDK layer';
const EXTRA_FIELDS_TRAP = 'Your outputSchema forbids fields your tool returns (status, context)';
const OUTPUT_REJECTION = "The MCP SDK rejected your tool's answer against your own outputSchema";

describe('a z.enum in the inputSchema: the invalid-input probe fails at the SDK layer', () => {
  test('probe --invalid shows the SDK text, the diagnosis naming the trap, and the fix', async () => {
    const r = await runCli(['probe', 'get_products', '--invalid', '--stdio', seller()]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('Input validation error: Invalid arguments for tool get_products');
    expect(r.stdout).toContain(`diagnosis: ${INPUT_TRAP}`);
    expect(r.stdout).toContain(ENUM_HINT);
    expect(r.stdout).toMatch(/✗ error\.adcp-error +fail/);
    expect(r.stdout).toContain(`fix: ${fixOf('error.adcp-error')}`);
  });
});

describe('z.object output schemas that reject the seller’s own fields', () => {
  test('plain z.object: advertised with additionalProperties:false, the extra fields fail schema.output-conformance with the trap named', async () => {
    const r = await runCli(['probe', 'list_creative_formats', '--stdio', seller()]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/✗ schema\.output-conformance +fail/);
    expect(r.stdout).toContain("schema: /result/structuredContent/status additionalProperties: expected no additional property 'status'");
    expect(r.stdout).toContain(`diagnosis: ${EXTRA_FIELDS_TRAP}`);
    expect(r.stdout).toContain(`fix: ${fixOf('schema.output-conformance')}`);
    expect(fixOf('schema.output-conformance')).toMatch(/z\.object/);
  });

  test('z.strictObject: the SDK itself refuses the answer ("Output validation error"), and the diagnosis says so', async () => {
    const r = await runCli(['probe', 'list_creative_formats', '--stdio', seller('--trap', 'strict-output')]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('Output validation error: Invalid structured content for tool list_creative_formats');
    expect(r.stdout).toContain(`diagnosis: ${OUTPUT_REJECTION}`);
  });
});

describe('run: the diagnoses and fix hints reach the terminal, summary.md and report.json', () => {
  let out: string;
  let r: CliResult;
  beforeAll(async () => {
    out = await tmp('sdk-traps');
    r = await runCli(['run', '--stdio', seller(), '--out', out, '--reporter', 'json,markdown,summary']);
  }, 180_000);

  test('exit 1, and every trap is named once with its fix', async () => {
    expect(r.code, r.stdout + r.stderr).toBe(1);
    for (const text of [INPUT_TRAP, EXTRA_FIELDS_TRAP]) expect(r.stdout).toContain(`diagnosis: ${text}`);
    expect(r.stdout).toContain(`fix:      ${fixOf('error.adcp-error')}`);
    expect(r.stdout).toContain(`fix:      ${fixOf('schema.output-conformance')}`);

    const md = plain(await readFile(join(out, 'summary.md'), 'utf8'));
    for (const text of [INPUT_TRAP, EXTRA_FIELDS_TRAP, fixOf('error.adcp-error'), fixOf('schema.output-conformance')])
      expect(md).toContain(text);

    const report = await readReport(out);
    const outcomes = report.agents[0]!.outcomes as Array<{
      check: string;
      tool: string;
      status: string;
      fix?: string;
      evidence?: { diagnosis?: string };
    }>;
    const conformance = outcomes.find((o) => o.check === 'schema.output-conformance' && o.tool === 'list_creative_formats');
    expect(conformance?.status).toBe('fail');
    expect(conformance?.evidence?.diagnosis).toContain(EXTRA_FIELDS_TRAP);
    expect(outcomes.filter((o) => o.status === 'fail').every((o) => typeof o.fix === 'string' && o.fix.length > 0)).toBe(true);
  });
});
