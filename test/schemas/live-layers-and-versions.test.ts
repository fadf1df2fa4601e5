// Seed 004's layers and the AdCP schema versions, end to end: the CLI as a user runs it, against real
// sellers built on @modelcontextprotocol/server 2.3.1 and 2.4.0, and against the reference seller
// validated at 3.0 (the @adcp/sdk schemas) and at 3.1.19 (../shared).
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { ROOT, SHARED, readReport, runCli, type ReportJsonShape } from '../run/cli.helpers.ts';

const SDK2_SELLER = join(ROOT, 'test', 'fixtures', 'sdk2-sellers', 'seller.ts');
const SCHEMAS_3_1_19 = join(SHARED, 'adcp', 'schemas', '3.1.19');
const hasShared = existsSync(SCHEMAS_3_1_19);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adcp-live-layers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function outcome(report: ReportJsonShape, agent: string, check: string, tool: string) {
  const found = report.agents.find((a) => a.name === agent)?.outcomes.find((o) => o.check === check && o.tool === tool);
  if (!found) throw new Error(`no outcome ${check} › ${tool} for ${agent}`);
  return found;
}

describe('seed 004 layers on real @modelcontextprotocol/server sellers (protocol 2025-11-25)', () => {
  let report: ReportJsonShape;
  let junit: string;

  beforeAll(async () => {
    const sdk2Agent = (version: string) => ({
      name: `sdk-${version}`,
      transport: 'stdio',
      command: process.execPath,
      args: ['--import', 'tsx', SDK2_SELLER, version],
      cwd: ROOT,
      probes: [
        { tool: 'get_report', arguments: {} },
        { tool: 'ping_plain', arguments: {} },
      ],
    });
    const config = join(dir, 'sdk2.json');
    await writeFile(config, JSON.stringify({ agents: [sdk2Agent('2.3.1'), sdk2Agent('2.4.0')] }));
    const out = join(dir, 'sdk2-out');
    const run = await runCli(['run', '--config', config, '--out', out]);
    // These fixtures expose no AdCP tool (they exist to show the layers), so each fails the MUST
    // capabilities.adcp-tools and nothing else: legacy_wrapper is a SHOULD, a warning, not a failure.
    expect(run.code, run.stderr + run.stdout).toBe(1);
    report = await readReport(out);
    for (const agent of report.agents) {
      expect(
        agent.outcomes.filter((o) => o.status === 'fail').map((o) => o.check),
        agent.name,
      ).toEqual(['capabilities.adcp-tools']);
    }
    junit = await readFile(join(out, 'junit.xml'), 'utf8');
  }, 120_000);

  test('2.3.1: the meta-id tool is legacy_wrapper, its inner object validates, schema.legacy-wrapper warns', () => {
    expect(report.agents.find((a) => a.name === 'sdk-2.3.1')?.layers).toEqual({
      validate_root: 1,
      legacy_wrapper: 1,
      missing: 0,
      schema: 0,
    });
    expect(outcome(report, 'sdk-2.3.1', 'schema.output-conformance', 'get_report').status).toBe('pass');
    expect(outcome(report, 'sdk-2.3.1', 'schema.legacy-wrapper', 'get_report').status).toBe('warn');
  });

  test('2.4.0: the meta-id tool is validate_root and passes', () => {
    expect(report.agents.find((a) => a.name === 'sdk-2.4.0')?.layers).toEqual({
      validate_root: 2,
      legacy_wrapper: 0,
      missing: 0,
      schema: 0,
    });
    expect(outcome(report, 'sdk-2.4.0', 'schema.output-conformance', 'get_report').status).toBe('pass');
    expect(outcome(report, 'sdk-2.4.0', 'schema.legacy-wrapper', 'get_report').status).toBe('pass');
  });

  test('a plain tool is validate_root on both versions', () => {
    for (const agent of ['sdk-2.3.1', 'sdk-2.4.0']) {
      expect(outcome(report, agent, 'schema.output-conformance', 'ping_plain').status).toBe('pass');
      expect(outcome(report, agent, 'schema.legacy-wrapper', 'ping_plain').status).toBe('pass');
    }
  });

  test('the layer counts are JUnit properties of each agent suite too', () => {
    const suite = (name: string) => junit.slice(junit.indexOf(`<testsuite name="${name}"`)).split('</testsuite>')[0] ?? '';
    expect(suite('sdk-2.3.1')).toContain('<property name="layers.legacy_wrapper" value="1"/>');
    expect(suite('sdk-2.3.1')).toContain('<property name="layers.validate_root" value="1"/>');
    expect(suite('sdk-2.4.0')).toContain('<property name="layers.legacy_wrapper" value="0"/>');
    expect(suite('sdk-2.4.0')).toContain('<property name="layers.validate_root" value="2"/>');
  });
});

describe.skipIf(!hasShared)('the reference seller against the AdCP 3.1.19 schemas (../shared; skipped when absent)', () => {
  test('clean: every schema.adcp-response passes or skips with a reason, at 3.1.19', async () => {
    const out = join(dir, 'ref-3.1.19');
    const run = await runCli(['run', '--schemas', SCHEMAS_3_1_19, '--agent', 'reference-stdio', '--out', out]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const report = await readReport(out);
    const agent = report.agents.find((a) => a.name === 'reference-stdio');
    const adcp = agent?.outcomes.filter((o) => o.check === 'schema.adcp-response') ?? [];
    expect(adcp.filter((o) => o.status === 'pass').length).toBeGreaterThanOrEqual(9);
    expect(adcp.filter((o) => o.status === 'fail' || o.status === 'warn')).toEqual([]);
    expect(JSON.stringify(await readFile(join(out, 'junit.xml'), 'utf8'))).toContain('3.1.19');
  }, 120_000);

  test('a payload without a required field fails schema.adcp-response at 3.1.19 with the pointer named', async () => {
    const { command, args } = stdioSellerCommand({ faults: ['adcp-response-missing-required'] });
    const config = join(dir, 'missing-required.json');
    await writeFile(config, JSON.stringify({ agents: [{ name: 'dropped-field', transport: 'stdio', command, args }] }));
    const out = join(dir, 'missing-required-out');
    const run = await runCli(['run', '--config', config, '--schemas', SCHEMAS_3_1_19, '--out', out]);
    expect(run.code).toBe(1);
    const found = outcome(await readReport(out), 'dropped-field', 'schema.adcp-response', 'list_creative_formats');
    expect(found.status).toBe('fail');
    expect(found.message).toMatch(/structuredContent/);
    expect(found.message).toMatch(/required property 'formats'/);
  }, 120_000);
});
