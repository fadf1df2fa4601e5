// End to end through the CLI, as a CI job would run it: sellers that are down say why (report.json,
// JUnit, `probe`), each JUnit suite's time is its agent's real duration, the Markdown summary lands in
// GITHUB_STEP_SUMMARY after what was there, and no report shows a pointer into the harness's capture.
import { createServer, type AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { canValidateJunit, runCli, tempDirs, validateJunit, type CliResult } from './cli.helpers.ts';
import { reportSchemaErrors } from './nightly.helpers.ts';

const tmp = tempDirs();
const timeouts = { connect: 15_000, call: 8_000, agent: 60_000 };
/** Pointers into the harness's own capture record, which mean nothing to a reader. */
const INTERNAL =
  /\/exchanges\/\d|\/outcome\/failure|\/stdio\/stdoutJunk|\/http\/observations|\/scenarios\/\d|\/protocolViolations|at \/aborted|at \/initialize/;

interface Agent {
  name: string;
  reachable: boolean;
  durationMs: number | null;
  verdictReason: string | null;
  down?: { cause: string; detail: string; fix: string };
  outcomes: Array<{ check: string; status: string; message: string; fix?: string }>;
}

async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address;
}

const faulty = (fault: string) => ({ name: fault, transport: 'stdio', ...stdioSellerCommand({ faults: [fault] }), timeouts });

describe('a run with sellers down and sellers at fault', () => {
  let dir = '';
  let refused = '';
  let cli: CliResult;
  let agents: Map<string, Agent>;
  let stepSummary = '';
  const read = (f: string) => readFile(join(dir, f), 'utf8');

  beforeAll(async () => {
    dir = await tmp('down-and-reports');
    refused = await closedPort();
    const throws = join(dir, 'throws.mjs');
    await writeFile(throws, "const start = () => { throw new Error('SELLER_DB_URL is not set'); };\nstart();\n");
    const config = join(dir, 'agents.json');
    const list = [
      faulty('stdout-logs'),
      faulty('version-no-echo'),
      faulty('crash-mid-call'),
      { name: 'refused', transport: 'http', url: `http://${refused}/mcp`, timeouts },
      { name: 'throws', transport: 'stdio', command: process.execPath, args: [throws], timeouts },
    ];
    await writeFile(config, JSON.stringify({ agents: list }));
    await writeFile(join(dir, 'step-summary.md'), '## earlier step\n');
    cli = await runCli(['run', '--config', config, '--out', join(dir, 'out')], { GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') });
    const report = JSON.parse(await read('out/report.json')) as { agents: Agent[] };
    expect(reportSchemaErrors(report)).toBeNull();
    agents = new Map(report.agents.map((a) => [a.name, a]));
    stepSummary = await read('step-summary.md');
  }, 240_000);

  test('exit 3, and each seller that is down says why, with a fix that fits', () => {
    expect(cli.code).toBe(3);
    const r = agents.get('refused')!;
    expect(r).toMatchObject({
      reachable: false,
      down: { cause: 'connection-refused', detail: `connection refused at ${refused}` },
      verdictReason: `unreachable: connection refused at ${refused}`,
    });
    const t = agents.get('throws')!;
    expect(t.down).toEqual({
      cause: 'exited',
      detail: 'the server exited with code 1 before answering initialize: Error: SELLER_DB_URL is not set',
      fix: 'run the command yourself, from the same directory, and fix the error it prints',
    });
    // The handshake's own failure carries the same words and the fix for the cause, not one about initialize.
    const init = t.outcomes.find((o) => o.check === 'transport.initialize')!;
    expect(init).toMatchObject({ status: 'fail', fix: t.down!.fix });
    expect(init.message).toContain('Error: SELLER_DB_URL is not set');
    for (const name of ['stdout-logs', 'version-no-echo', 'crash-mid-call']) expect(agents.get(name)!.down).toBeUndefined();
  });

  test("each JUnit suite's time is its agent's real duration", async () => {
    const junit = await read('out/junit.xml');
    for (const a of agents.values()) {
      const tag = new RegExp(`<testsuite name="${a.name}"[^>]*>`).exec(junit)?.[0] ?? '';
      expect(a.durationMs, a.name).toBeGreaterThan(0);
      expect(tag, a.name).toContain(` time="${(a.durationMs! / 1000).toFixed(3)}"`);
    }
    expect(junit).toContain('<property name="incomplete" value="unreachable: the server exited with code 1 before answering initialize');
  });

  test.skipIf(!canValidateJunit)('junit.xml validates against junit-10.xsd (skipped: ../shared or xmllint absent)', () => {
    validateJunit(join(dir, 'out', 'junit.xml'));
  });

  test('the Markdown summary is appended to GITHUB_STEP_SUMMARY, after what an earlier step wrote', async () => {
    expect(stepSummary).toBe(`## earlier step\n${await read('out/summary.md')}`);
  });

  test("no report shows a pointer into the harness's capture record", async () => {
    // The faults make findings at each kind of place: stdout junk, a call with no answer, a session cut
    // short, a missing echo judged over the session's calls.
    const checks = [...agents.values()].flatMap((a) =>
      a.outcomes.filter((o) => o.status === 'fail' || o.status === 'warn').map((o) => o.check),
    );
    expect(checks).toEqual(expect.arrayContaining(['transport.stdio-stdout', 'transport.call', 'version.echo', 'transport.initialize']));
    for (const [name, text] of [
      ['terminal', cli.stdout],
      ['summary.md', await read('out/summary.md')],
      ['report.html', await read('out/report.html')],
      ['junit.xml', await read('out/junit.xml')],
    ] as const) {
      expect(INTERNAL.exec(text)?.[0], name).toBeUndefined();
    }
  });
});

describe('probe of a seller that is down', () => {
  test('says why and what to do, exit 3', async () => {
    const address = await closedPort();
    const cli = await runCli(['probe', 'get_products', '--url', `http://${address}/mcp`]);
    expect(cli.code).toBe(3);
    expect(cli.stdout).toContain(`unreachable: connection refused at ${address}`);
    expect(cli.stdout).toContain(`fix: is the server running and listening on ${address}?`);
  });
});
