// Honest verdicts, end to end through the CLI against live sellers of our own: never green on what was
// not verified, and the seller's own words shown where a developer will look (terminal, summary.md,
// JUnit, report.json). Each case was a false "✓ conformant" (or a hidden answer) before.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { canValidateJunit, ROOT, runCli, tempDirs, validateJunit, type CliResult } from './cli.helpers.ts';
import { reportSchemaErrors } from './nightly.helpers.ts';

const tmp = tempDirs();
const SELLER = join(ROOT, 'test', 'fixtures', 'servers', 'verdict-seller.mjs');
const timeouts = { connect: 15_000, call: 8_000, agent: 60_000 };

interface Report {
  schemaVersion: number;
  verdict: string;
  exitCode: number;
  complete: boolean;
  cutShort: string | null;
  run: {
    startedAt: string;
    endedAt: string;
    harnessVersion: string;
    node: string;
    mcpSdkVersion: string;
    adcpSdkVersion: string;
    schemaSource: { kind: string; versions: string[] };
  };
  agents: Array<{
    name: string;
    verdict: string;
    verdictText: string;
    verdictReason: string | null;
    adcpVersion: string | null;
    stderrTail?: string;
    outcomes: Array<{
      check: string;
      tool: string;
      status: string;
      message: string;
      evidence?: { diagnosis?: string; answer?: string; request?: string };
    }>;
  }>;
}

async function runAgents(
  name: string,
  agents: unknown[],
  extra: string[] = [],
): Promise<{ dir: string; cli: CliResult; report: Report; summary: string; junit: string }> {
  const dir = await tmp(name);
  const config = join(dir, 'agents.json');
  await writeFile(config, JSON.stringify({ agents }));
  const cli = await runCli(['run', '--config', config, '--out', dir, ...extra]);
  const read = (f: string) => readFile(join(dir, f), 'utf8');
  return {
    dir,
    cli,
    report: JSON.parse(await read('report.json')) as Report,
    summary: await read('summary.md'),
    junit: await read('junit.xml'),
  };
}

const verdictSeller = (mode: string, name = mode) => ({
  name,
  transport: 'stdio',
  command: process.execPath,
  args: [SELLER, mode],
  timeouts,
});

function validateReport(report: unknown): void {
  expect(reportSchemaErrors(report)).toBeNull();
}

describe('the seller’s own answer is shown', () => {
  test('a handler exception: the exception message in the terminal, summary.md, JUnit and report.json, as a diagnosis', async () => {
    const { cli, report, summary, junit, dir } = await runAgents('throws', [verdictSeller('throws')]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(1);
    const agent = report.agents[0]!;
    expect(agent.verdict).toBe('nonconformant');
    const diagnosed = agent.outcomes.find((o) => o.evidence?.diagnosis);
    expect(diagnosed?.evidence?.diagnosis).toContain("Your tool threw `Cannot read properties of undefined (reading 'map')`");
    expect(diagnosed?.evidence?.request).toMatch(/^get_products \{/);
    expect(cli.stdout).toContain("Your tool threw `Cannot read properties of undefined (reading 'map')`");
    expect(summary).toContain('Your tool threw \\`Cannot read properties of undefined (reading');
    expect(junit).toMatch(/<failure message="Your tool threw `Cannot read properties of undefined \(reading &apos;map&apos;\)`/);
    expect(junit).not.toMatch(/at .*\/(harness|suites)\/[^ ]*\.ts:\d+/);
    if (canValidateJunit) validateJunit(join(dir, 'junit.xml'));
    validateReport(report);
  }, 90_000);

  test("the MCP SDK's own output-schema rejection is named as such", async () => {
    const { cli, report } = await runAgents('output-rejects', [verdictSeller('output-rejects')]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(1);
    const diagnosis = report.agents[0]!.outcomes.map((o) => o.evidence?.diagnosis).find(Boolean);
    expect(diagnosis).toMatch(/your outputSchema rejects your own answer/);
    expect(cli.stdout).toMatch(/your outputSchema rejects your own answer/);
  }, 90_000);

  test('a stdio seller that dies at start-up: its stderr in the terminal and report, the run incomplete (exit 3)', async () => {
    const { cli, report, summary } = await runAgents('fatal', [verdictSeller('fatal')]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(3);
    const agent = report.agents[0]!;
    expect(agent.verdict).toBe('incomplete');
    expect(agent.stderrTail).toContain('FATAL: SELLER_API_KEY is not set');
    expect(cli.stdout).toContain('FATAL: SELLER_API_KEY is not set');
    expect(summary).toContain('FATAL: SELLER_API_KEY is not set');
    // Nothing about a seller that never spoke can have passed.
    expect(agent.outcomes.filter((o) => o.status === 'pass')).toEqual([]);
    expect(agent.outcomes.find((o) => o.check === 'transport.initialize')?.status).toBe('fail');
  }, 90_000);
});

describe('never conformant on what was not verified', () => {
  test('an MCP server with no AdCP tool is nonconformant (capabilities.adcp-tools)', async () => {
    const { cli, report } = await runAgents('no-adcp', [verdictSeller('no-adcp-tools')]);
    expect(cli.code, cli.stdout + cli.stderr).not.toBe(0);
    expect(report.agents[0]!.verdict).toBe('nonconformant');
    expect(report.agents[0]!.outcomes.find((o) => o.check === 'capabilities.adcp-tools')).toMatchObject({ status: 'fail' });
    expect(cli.stdout).not.toContain('✓');
  }, 90_000);

  test('a seller declaring only AdCP 3.1 is not judged at 3.0: the AdCP schema checks are untested, exit 3, with how to supply schemas', async () => {
    const { cli, report } = await runAgents('declares-31', [verdictSeller('declares-3.1')]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(3);
    const agent = report.agents[0]!;
    expect(agent.verdict).toBe('incomplete');
    expect(agent.adcpVersion).toBe('3.1 (no schemas)');
    const schema = agent.outcomes.filter((o) => o.check === 'schema.adcp-response' && o.tool === 'get_products');
    expect(schema.length).toBeGreaterThan(0);
    for (const o of schema) {
      expect(o.status).toBe('untested');
      expect(o.message).toContain('--schemas');
    }
    expect(cli.stdout).toMatch(/declares-3\.1\s+incomplete\s+3\.1 \(no schemas\)/);
  }, 90_000);

  test('an unreachable --schemas URL leaves the schema checks untested: incomplete, exit 3, never complete', async () => {
    const port = await closedPort();
    const { command, args } = stdioSellerCommand();
    const { cli, report } = await runAgents(
      'schemas-down',
      [{ name: 'ref', transport: 'stdio', command, args, timeouts }],
      ['--schemas', `http://127.0.0.1:${port}/schemas/`],
    );
    expect(cli.code, cli.stdout + cli.stderr).toBe(3);
    expect(report.complete).toBe(false);
    expect(report.agents[0]!.verdict).toBe('incomplete');
    const schema = report.agents[0]!.outcomes.filter((o) => o.check === 'schema.adcp-response');
    expect(schema.some((o) => o.status === 'untested')).toBe(true);
    expect(schema.some((o) => o.status === 'pass')).toBe(false);
  }, 90_000);

  test('the clean reference seller stays conformant over stdio and HTTP (exit 0), with provenance, and report.json validates', async () => {
    const dir = await tmp('clean');
    const cli = await runCli(['run', '--out', dir]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.verdict).toBe('conformant');
    for (const a of report.agents) expect(a.verdictText).toMatch(/^conformant to AdCP 3\.0\.\d+ per adcp-conformance \d+\.\d+\.\d+$/);
    expect(report.run.harnessVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(report.run.mcpSdkVersion).toBe('1.32.2');
    expect(report.run.schemaSource.kind).toBe('sdk');
    expect(report.run.schemaSource.versions.length).toBeGreaterThan(0);
    expect(Date.parse(report.run.endedAt)).toBeGreaterThanOrEqual(Date.parse(report.run.startedAt));
    expect(cli.stdout).toMatch(/✓ 2 agents conformant to AdCP 3\.0\.\d+ per adcp-conformance /);
    validateReport(report);
    const version = await runCli(['--version']);
    expect(version.stdout).toMatch(/^adcp-conformance \d+\.\d+\.\d+ \(node /);
  }, 120_000);
});

describe('Ctrl-C is never the seller’s failure', () => {
  test('SIGINT while a call hangs: that call is untested (not a transport.call failure), the run incomplete', async () => {
    const dir = await tmp('sigint-call');
    const { command, args } = stdioSellerCommand({ faults: ['hang-on-call'] });
    const config = join(dir, 'agents.json');
    await writeFile(
      config,
      JSON.stringify({
        agents: [{ name: 'hangs', transport: 'stdio', command, args, timeouts: { connect: 15_000, call: 60_000, agent: 120_000 } }],
      }),
    );
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'adcp-conformance.js'), 'run', '--config', config, '--out', dir], {
      cwd: ROOT,
      env: { ...process.env, CI: '1', NO_COLOR: '1' },
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const calling = new Promise<void>((done) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/get_signals/.test(stderr)) done();
      }),
    );
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    await Promise.race([calling, exited]);
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGINT');
    expect(await exited, stdout + stderr).toBe(3);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
    const agent = report.agents[0]!;
    expect(agent.verdict).toBe('incomplete');
    const call = agent.outcomes.filter((o) => o.check === 'transport.call');
    expect(
      call.filter((o) => o.status === 'fail'),
      JSON.stringify(call),
    ).toEqual([]);
    expect(call.some((o) => o.status === 'untested' && /interrupted/.test(o.message))).toBe(true);
  }, 120_000);
});

describe('merging shards', () => {
  test('a merge with a shard missing says so and exits 3; flags that do not apply to a merge exit 2', async () => {
    const dir = await tmp('merge-missing');
    const blobs = join(dir, 'blobs');
    const one = await runCli(['run', '--shard', '1/2', '--out', join(dir, 's1'), '--reporter', 'json,blob']);
    expect([0, 1, 3]).toContain(one.code);
    const { cp } = await import('node:fs/promises');
    await cp(join(dir, 's1', 'blob'), blobs, { recursive: true });
    const merged = await runCli(['run', '--merge-reports', blobs, '--out', join(dir, 'merged')]);
    expect(merged.code, merged.stdout + merged.stderr).toBe(3);
    expect(merged.stdout).toMatch(/shard\(s\) 2\/2 missing|1 of the run's 2 agents/);
    const report = JSON.parse(await readFile(join(dir, 'merged', 'report.json'), 'utf8')) as Report;
    expect(report).toMatchObject({ complete: false, verdict: 'incomplete' });
    const wrong = await runCli(['run', '--merge-reports', blobs, '--out', join(dir, 'merged2'), '--config', 'x.yaml']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--config');
  }, 120_000);
});

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
