// `adcp-conformance run` end to end: the CLI as a child process against the embedded reference seller
// (stdio + loopback HTTP), a faulty seller, an unreachable one and a bad config.
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { escapeXml } from '../../harness/sanitize.ts';
import { canValidateJunit, junitCases, outcomeSet, readReport, runCli, tempDirs, validateJunit, type CliResult } from './cli.helpers.ts';

const tmp = tempDirs();

const mkdirp = async (dir: string): Promise<string> => (await mkdir(dir, { recursive: true }), dir);

/** `<testsuite> > <testcase>` name → fail | skip | pass, from a JUnit file. */
async function junitStatuses(file: string): Promise<Map<string, string>> {
  const xml = await readFile(file, 'utf8');
  const out = new Map<string, string>();
  for (const m of xml.matchAll(/<testcase\b[^>]*?\sname="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const body = m[2] ?? '';
    out.set(m[1]!, /<failure\b/.test(body) ? 'fail' : /<skipped\b/.test(body) ? 'skip' : 'pass');
  }
  return out;
}

describe('run with no config: the embedded reference seller', () => {
  let out: string;
  let recording: string;
  let result: CliResult;
  beforeAll(async () => {
    out = await tmp('default');
    recording = join(out, 'session.jsonl');
    result = await runCli(['run', '--out', out, '--record', recording]);
  }, 120_000);

  test('exits 0 and writes the three reports', () => {
    expect(result.stderr + result.stdout).not.toMatch(/internal error/);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    for (const f of ['junit.xml', 'report.json', 'summary.md']) expect(existsSync(join(out, f)), f).toBe(true);
  });

  test('report.json: both agents, no fail, no warn', async () => {
    const report = await readReport(out);
    expect(report.schemaVersion).toBe(2);
    expect(report.agents.map((a) => [a.name, a.transport, a.reachable])).toEqual([
      ['reference-stdio', 'stdio', true],
      ['reference-http', 'http', true],
    ]);
    expect(report.summary.fail).toBe(0);
    expect(report.summary.warn).toBe(0);
    expect(report.summary.pass).toBeGreaterThan(0);
    expect(report.exitCode).toBe(0);
  });

  test('junit.xml: one testsuite per agent with its facts, one testcase per check × tool', async () => {
    const xml = await readFile(join(out, 'junit.xml'), 'utf8');
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml).toMatch(/<testsuite name="reference-stdio"[^>]*>\s*<properties>.*<property name="transport" value="stdio"\/>/);
    expect(xml).toMatch(/<property name="layers\.validate_root" value="\d+"\/>/);
    const report = await readReport(out);
    const cases = await junitCases(join(out, 'junit.xml'));
    // One test case per (check, tool), whatever the number of calls; a pair whose outcomes are all
    // not-applicable is counted in the suite properties, not listed as a test case.
    const listed = report.agents.flatMap((a) => [
      ...new Set(
        a.outcomes
          .filter((o) => o.status !== 'not-applicable')
          .map((o) => `${escapeXml(a.name)} :: ${escapeXml(`${a.name} > ${o.check} › ${o.tool}`)}`),
      ),
    ]);
    expect(cases).toEqual(listed.sort());
    const na = report.agents[0]!.outcomes.filter((o) => o.status === 'not-applicable').length;
    expect(na).toBeGreaterThan(0);
    expect(xml).toContain(`<property name="count.notApplicable" value="${na}"/>`);
    expect(cases).toContain('reference-http :: reference-http &gt; transport.initialize › initialize');
  });

  test.skipIf(!canValidateJunit)('junit.xml validates against junit-10.xsd (skipped when ../shared or xmllint is absent)', () => {
    validateJunit(join(out, 'junit.xml'));
  });

  test('summary.md and the terminal summary', async () => {
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toContain('✅ conformant');
    expect(result.stdout).toMatch(/agent\s+verdict\s+AdCP\s+pass\s+fail\s+warn\s+untested\s+n\/a\s+baselined/);
    expect(result.stdout).toMatch(/reference-stdio\s+conformant\s+3\.0\.\d+/);
    expect(result.stdout).toContain('✓ 2 agents conformant to AdCP');
    expect(result.stdout).not.toContain('\u001b['); // NO_COLOR
  });

  test('--replay of the recording judges offline to the same outcomes; --agent and --check narrow it', async () => {
    const replayOut = await tmp('replay');
    const replay = await runCli(['run', '--replay', recording, '--out', replayOut]);
    expect(replay.code, replay.stdout + replay.stderr).toBe(result.code);
    expect(outcomeSet(await readReport(replayOut))).toEqual(outcomeSet(await readReport(out)));

    const narrowOut = await tmp('narrow');
    const narrow = await runCli(['run', '--replay', recording, '--agent', 'reference-http', '--check', 'envelope.', '--out', narrowOut]);
    expect(narrow.code, narrow.stdout + narrow.stderr).not.toBe(2);
    const report = await readReport(narrowOut);
    expect(report.agents.map((a) => a.name)).toEqual(['reference-http']);
    expect(new Set(report.agents[0]?.outcomes.map((o) => o.check.split('.')[0]))).toEqual(new Set(['envelope']));
  });

  test('--shard 1/2 + --shard 2/2 give the unsharded test cases; --merge-reports joins their blobs', async () => {
    const blobs = await tmp('blobs');
    const shards: string[] = [];
    for (const shard of ['1/2', '2/2']) {
      const dir = await tmp('shard');
      const r = await runCli(['run', '--replay', recording, '--shard', shard, '--out', dir, '--reporter', 'junit,json,blob']);
      expect([0, 1], r.stdout + r.stderr).toContain(r.code);
      shards.push(dir);
      const blobDir = join(dir, 'blob');
      for (const f of ['blob-1-2.json', 'blob-2-2.json']) {
        if (existsSync(join(blobDir, f))) await writeFile(join(blobs, f), await readFile(join(blobDir, f)));
      }
    }
    const perShard = await Promise.all(shards.map((d) => junitCases(join(d, 'junit.xml'))));
    expect(perShard.every((c) => c.length > 0)).toBe(true);
    expect([...perShard.flat()].sort()).toEqual(await junitCases(join(out, 'junit.xml')));

    const merged = await tmp('merged');
    const m = await runCli(['run', '--merge-reports', blobs, '--out', merged]);
    expect(m.code, m.stdout + m.stderr).toBe(result.code);
    expect(await junitCases(join(merged, 'junit.xml'))).toEqual(await junitCases(join(out, 'junit.xml')));
    expect(outcomeSet(await readReport(merged))).toEqual(outcomeSet(await readReport(out)));
    if (canValidateJunit) validateJunit(join(merged, 'junit.xml'));
  });
});

describe('run against sellers that are not conformant', () => {
  test('a faulty seller exits 1 with the failing id; its baseline turns the failure into an expected one', async () => {
    const dir = await tmp('fault');
    const config = join(dir, 'agents.json');
    const { command, args } = stdioSellerCommand({ faults: ['context-not-echoed'] });
    await writeFile(config, JSON.stringify({ agents: [{ name: 'faulty', transport: 'stdio', command, args }] }));
    const recording = join(dir, 'faulty.jsonl');
    const r = await runCli(['run', '--config', config, '--out', dir, '--record', recording]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const report = await readReport(dir);
    expect(report.agents[0]?.outcomes.some((o) => o.check === 'envelope.context-echo' && o.status === 'fail')).toBe(true);
    // One finding for the bug, however many calls show it.
    expect(r.stdout).toMatch(/✗ faulty {2}envelope\.context-echo {2}\[MUST\] {2}failed on \d+ of \d+ calls\n/);
    const xml = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect(xml).toMatch(/envelope\.context-echo › [^"]*" time="[^"]*">\s*<failure message="at \//);

    // The same session, replayed with a baseline entry for that id: reported, not counted.
    const baselined = join(dir, 'baselined.json');
    await writeFile(
      baselined,
      JSON.stringify({
        agents: [{ name: 'faulty', transport: 'stdio', command, args, expect: { 'envelope.context-echo': 'known: TICKET-1' } }],
      }),
    );
    const outB = await tmp('baselined');
    const b = await runCli(['run', '--config', baselined, '--replay', recording, '--out', outB]);
    expect(b.code, b.stdout + b.stderr).toBe(0);
    const reportB = await readReport(outB);
    expect(reportB.summary.fail).toBe(0);
    expect(reportB.summary.baselined).toBeGreaterThan(0);
    expect(reportB.agents[0]?.outcomes.find((o) => o.check === 'envelope.context-echo' && o.status === 'fail')?.baseline).toBe(
      'known: TICKET-1',
    );
    expect(await readFile(join(outB, 'summary.md'), 'utf8')).toContain('## Expected failures (baseline)');
  });

  test('a tool probed three times is one test case per check; shards and their merge agree on names and statuses', async () => {
    const dir = await tmp('thrice');
    const config = join(dir, 'agents.json');
    const faulty = stdioSellerCommand({ faults: ['context-not-echoed'] });
    const clean = stdioSellerCommand();
    const brief = { buying_mode: 'brief', brief: 'Video inventory for a summer campaign' };
    const probes = [{ tool: 'get_adcp_capabilities', arguments: {} }, ...[1, 2, 3].map(() => ({ tool: 'get_products', arguments: brief }))];
    await writeFile(
      config,
      JSON.stringify({
        agents: [
          { name: 'faulty', transport: 'stdio', ...faulty, probes },
          { name: 'clean', transport: 'stdio', ...clean, probes },
        ],
      }),
    );
    const recording = join(dir, 'thrice.jsonl');
    const single = join(dir, 'single');
    const r = await runCli(['run', '--config', config, '--out', single, '--record', recording]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const report = await readReport(single);
    const echo = report.agents[0]!.outcomes.filter((o) => o.check === 'envelope.context-echo' && o.tool === 'get_products');
    expect(echo.map((o) => o.status)).toEqual(['fail', 'fail', 'fail']); // report.json keeps every outcome
    const xml = await readFile(join(single, 'junit.xml'), 'utf8');
    expect(xml.match(/name="faulty &gt; envelope\.context-echo › get_products"/g)).toHaveLength(1);
    expect(xml).toMatch(
      /name="faulty &gt; envelope\.context-echo › get_products" time="[^"]*">\s*<failure message="3 of 3 calls failed: call #\d+: at \//,
    );
    expect(xml).not.toMatch(/› get_products \(2\)/);
    const statuses = await junitStatuses(join(single, 'junit.xml'));
    expect(statuses.get('faulty &gt; envelope.context-echo › get_products')).toBe('fail');
    expect(statuses.get('clean &gt; envelope.context-echo › get_products')).toBe('pass');

    const blobs = join(dir, 'blobs');
    const shardStatuses = new Map<string, string>();
    for (const shard of ['1/2', '2/2']) {
      const out = join(dir, `shard-${shard[0]}`);
      const s = await runCli([
        'run',
        '--replay',
        recording,
        '--config',
        config,
        '--shard',
        shard,
        '--out',
        out,
        '--reporter',
        'junit,blob',
      ]);
      expect([0, 1], s.stdout + s.stderr).toContain(s.code);
      for (const [k, v] of await junitStatuses(join(out, 'junit.xml'))) shardStatuses.set(k, v);
      for (const f of await readdir(join(out, 'blob'))) await copyFile(join(out, 'blob', f), join(await mkdirp(blobs), f));
    }
    expect(shardStatuses).toEqual(statuses);
    const merged = join(dir, 'merged');
    const m = await runCli(['run', '--merge-reports', blobs, '--out', merged]);
    expect(m.code, m.stdout + m.stderr).toBe(1);
    expect(await junitStatuses(join(merged, 'junit.xml'))).toEqual(statuses);
    expect(await readFile(join(merged, 'junit.xml'), 'utf8')).toMatch(/<failure message="3 of 3 calls failed: call #\d+: at \//);
    expect(outcomeSet(await readReport(merged))).toEqual(outcomeSet(report));
    if (canValidateJunit) validateJunit(join(merged, 'junit.xml'));
  });

  test('an unreachable agent exits 3 with a failing transport.initialize', async () => {
    const port = await closedPort();
    const dir = await tmp('down');
    const config = join(dir, 'agents.yaml');
    await writeFile(config, `agents:\n  - name: down\n    transport: http\n    url: http://127.0.0.1:${port}/mcp\n`);
    const r = await runCli(['run', '--config', config, '--out', dir]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    const report = await readReport(dir);
    expect(report.agents[0]?.reachable).toBe(false);
    expect(report.agents[0]?.outcomes.find((o) => o.check === 'transport.initialize')?.status).toBe('fail');
    if (canValidateJunit) validateJunit(join(dir, 'junit.xml'));
  });

  test('a bad config exits 2 naming the file and the pointer, and runs nothing', async () => {
    const dir = await tmp('badconfig');
    const config = join(dir, 'bad.json');
    await writeFile(config, JSON.stringify({ agents: [{ name: 'x', transport: 'http', url: 42 }] }));
    const r = await runCli(['run', '--config', config, '--out', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${config}: /agents/0/url`);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
  });

  test('usage errors exit 2', async () => {
    const r = await runCli(['run', '--shard', '3/2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--shard');
    const unknown = await runCli(['run', '--agent', 'nobody', '--reporter', 'json', '--out', await tmp('usage')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no agent named 'nobody'");
  });
});

/** A loopback port nothing listens on: bind an ephemeral one, then close it. */
function closedPort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
