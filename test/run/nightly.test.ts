// The nightly run, end to end: the same inventory run twice with sellers changed in between — one newly
// failing, one fixed, one newly unreachable, one flaky (it fails every other call), one failing both
// nights — through the CLI as a child process against small stdio sellers of our own. Asserts the exact
// comparison, the exit codes under --fail-on any and regressions, and that the flaky seller is flaky and
// never a regression; then a night where nothing got worse (exit 0 under regressions although a seller
// is still down), and the same night without re-verification (the flaky failure becomes a regression).
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDirs, type CliResult } from './cli.helpers.ts';
import { inventory, reportSchemaErrors, type Inventory } from './nightly.helpers.ts';

const tmp = tempDirs();

interface Compared {
  agent: string;
  check: string;
  tool: string;
  probe?: number;
  message: string;
}
interface Report {
  exitCode: number;
  verdict: string;
  complete: boolean;
  failOn: string;
  comparison: {
    against: { startedAt: string | null; harnessVersion: string | null };
    newFailures: Compared[];
    fixed: Compared[];
    flaky: Compared[];
    stillFailing: number;
    newlyUnreachable: Array<{ agent: string; message?: string }>;
    backOnline: Array<{ agent: string }>;
    added: Array<{ agent: string }>;
    removed: Array<{ agent: string }>;
  } | null;
  run: { startedAt: string; harnessVersion: string };
  agents: Array<{ name: string; reachable: boolean; outcomes: Array<{ check: string; tool: string; status: string; flaky?: boolean }> }>;
}

const ECHO = { check: 'envelope.context-echo', tool: 'get_adcp_capabilities' };
/** The context-echo failure message, normalised: the harness's correlation id is a placeholder. */
const ECHO_MESSAGE = /^at \/result\/structuredContent\/context: expected the sent context .*<correlation-id>.*; found absent$/;

async function report(dir: string): Promise<Report> {
  return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
}

/** The entries without their messages (checked apart), for exact comparison. */
const ids = (entries: Compared[]) => entries.map(({ message: _m, ...id }) => id);

describe('nightly: the same inventory, sellers changed between the runs', () => {
  let inv: Inventory;
  let config: string;
  const out: Record<string, string> = {};
  const cli: Record<string, CliResult> = {};

  beforeAll(async () => {
    const dir = await tmp('nightly');
    inv = inventory(dir);
    const night = async (name: string, ...args: string[]) => {
      out[name] = join(dir, name);
      cli[name] = await runCli(['run', '--config', config, '--out', out[name]!, ...args]);
    };
    config = await inv.writeConfig(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);

    // Night 1: beta and epsilon fail (context not echoed); everyone else is clean.
    await inv.set({ alpha: 'clean', beta: 'broken', gamma: 'clean', delta: 'clean', epsilon: 'broken' });
    await night('night1');

    // Overnight: alpha breaks, beta is fixed, gamma goes down, delta turns flaky, epsilon stays broken.
    await inv.set({ alpha: 'broken', beta: 'clean', gamma: 'down', delta: 'flaky' });
    const night1 = join(dir, 'night1', 'report.json');
    await night('night2', '--compare', night1);
    await night('night2-regressions', '--compare', night1, '--fail-on', 'regressions');

    // Night 3: nothing got worse; epsilon left the inventory, zeta joined; gamma is still down.
    await inv.set({ zeta: 'clean' });
    config = await inv.writeConfig(['alpha', 'beta', 'gamma', 'delta', 'zeta'], {}, join(dir, 'sellers-night3.yaml'));
    const night2 = join(dir, 'night2', 'report.json');
    await night('night3', '--compare', night2, '--fail-on', 'regressions');

    // The same night on two machines: the shards write blobs, the merge compares and gates (the workflow of docs/nightly.md).
    await night('shard1', '--shard', '1/2', '--reporter', 'blob');
    await night('shard2', '--shard', '2/2', '--reporter', 'blob');
    const blobs = join(dir, 'all-blobs');
    await mkdir(blobs);
    for (const shard of ['shard1', 'shard2'])
      for (const f of await readdir(join(out[shard]!, 'blob'))) await copyFile(join(out[shard]!, 'blob', f), join(blobs, f));
    out['merged'] = join(dir, 'merged');
    cli['merged'] = await runCli([
      'run',
      '--merge-reports',
      blobs,
      '--out',
      out['merged'],
      '--compare',
      night2,
      '--fail-on',
      'regressions',
    ]);

    // The same night, against night 1 (when delta was clean), without re-verification.
    await night('night3-no-reverify', '--compare', night1, '--fail-on', 'regressions', '--no-reverify');
  }, 400_000);

  test('night 1 has failures (exit 1) and no comparison', async () => {
    expect(cli['night1']!.code, cli['night1']!.stdout + cli['night1']!.stderr).toBe(1);
    const r = await report(out['night1']!);
    expect(r.comparison).toBeNull();
    expect(r.failOn).toBe('any');
  });

  test('night 2: exactly one new failure, one fixed, one flaky, one still failing, one newly unreachable', async () => {
    const night1 = await report(out['night1']!);
    for (const name of ['night2', 'night2-regressions']) {
      const c = (await report(out[name]!)).comparison!;
      expect(c.against).toEqual({ startedAt: night1.run.startedAt, harnessVersion: night1.run.harnessVersion });
      expect(ids(c.newFailures), name).toEqual([{ agent: 'alpha', ...ECHO }]);
      expect(ids(c.fixed), name).toEqual([{ agent: 'beta', ...ECHO }]);
      expect(ids(c.flaky), name).toEqual([{ agent: 'delta', ...ECHO }]);
      expect(c.stillFailing, name).toBe(1);
      expect(c.newlyUnreachable, name).toEqual([
        { agent: 'gamma', message: expect.stringContaining('FATAL: upstream inventory service unreachable') },
      ]);
      expect(c.backOnline, name).toEqual([]);
      expect(c.added, name).toEqual([]);
      expect(c.removed, name).toEqual([]);
      // Messages are normalised: no correlation id, UUID or timestamp of either run survives.
      for (const e of [...c.newFailures, ...c.fixed, ...c.flaky]) {
        expect(e.message).toMatch(ECHO_MESSAGE);
        expect(e.message).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      }
    }
  });

  test('night 2 exit codes: 3 under --fail-on any (a seller is down), 1 under --fail-on regressions', async () => {
    expect(cli['night2']!.code, cli['night2']!.stderr).toBe(3);
    expect(cli['night2-regressions']!.code, cli['night2-regressions']!.stderr).toBe(1);
    const any = await report(out['night2']!);
    const regressions = await report(out['night2-regressions']!);
    expect([any.exitCode, any.failOn, any.verdict, any.complete]).toEqual([3, 'any', 'incomplete', false]);
    expect([regressions.exitCode, regressions.failOn, regressions.verdict, regressions.complete]).toEqual([
      1,
      'regressions',
      'incomplete',
      false,
    ]);
    expect(reportSchemaErrors(any)).toBeNull();
    expect(reportSchemaErrors(regressions)).toBeNull();
  });

  test('the flaky seller: its failure stays a failure marked flaky, listed apart, never a regression', async () => {
    const r = await report(out['night2']!);
    const delta = r.agents.find((a) => a.name === 'delta')!;
    const echo = delta.outcomes.filter((o) => o.check === ECHO.check && o.tool === ECHO.tool);
    expect(echo).toEqual([expect.objectContaining({ status: 'fail', flaky: true })]);
    // The steady failures were asked again too, and did not pass: not flaky.
    for (const name of ['alpha', 'epsilon']) {
      const o = r.agents.find((a) => a.name === name)!.outcomes.find((x) => x.check === ECHO.check)!;
      expect([o.status, o.flaky], name).toEqual(['fail', undefined]);
    }
    const stdout = cli['night2']!.stdout;
    expect(stdout).toMatch(/\nFlaky \(1 outcome, 1 finding; failed, then passed when re-verified in a fresh session/);
    expect(stdout).toMatch(/≈ delta {2}envelope\.context-echo › get_adcp_capabilities/);
    expect(stdout.slice(stdout.indexOf('\nFailures ('), stdout.indexOf('\nFlaky ('))).not.toContain('delta');
    const summary = await readFile(join(out['night2']!, 'summary.md'), 'utf8');
    expect(summary).toMatch(
      /## Flaky \(1 outcome, 1 finding; failed, then passed when re-verified in a fresh session; never a regression\)\n[^#]*\| delta \|/,
    );
  });

  test('the terminal and summary.md open with the comparison', async () => {
    const stdout = cli['night2']!.stdout.trimStart();
    expect(stdout.split('\n')[0]).toBe(
      `Since the run of ${(await report(out['night1']!)).run.startedAt} (adcp-conformance ${(await report(out['night1']!)).run.harnessVersion}): 1 new failure · 1 fixed · 1 flaky · 1 still failing · 1 newly unreachable · 0 back online · 0 agents added · 0 agents removed`,
    );
    expect(stdout).toMatch(/^ {2}\+ new failure {7}alpha {2}envelope\.context-echo › get_adcp_capabilities {2}at /m);
    expect(stdout).toMatch(/^ {2}↓ newly unreachable gamma {2}.*FATAL: upstream inventory service unreachable/m);
    expect(cli['night2-regressions']!.stdout).toContain('--fail-on regressions: 2 regressions (new failures and newly unreachable agents)');
    const summary = await readFile(join(out['night2']!, 'summary.md'), 'utf8');
    expect(summary.startsWith('# AdCP conformance\n\n## Since the compared run\n\n**Since the run of ')).toBe(true);
    expect(summary).toContain('| ❌ new failure | alpha | envelope.context-echo › get_adcp_capabilities |');
  });

  test('night 3: nothing got worse — exit 0 under regressions, though a seller is still down and another still fails', async () => {
    expect(cli['night3']!.code, cli['night3']!.stdout + cli['night3']!.stderr).toBe(0);
    const r = await report(out['night3']!);
    const c = r.comparison!;
    expect([r.exitCode, r.verdict, r.complete]).toEqual([0, 'incomplete', false]);
    expect(c.newFailures).toEqual([]);
    expect(c.newlyUnreachable).toEqual([]);
    expect(c.fixed).toEqual([]);
    expect(ids(c.flaky)).toEqual([{ agent: 'delta', ...ECHO }]);
    // alpha failed both nights; delta failed both nights (flaky both times).
    expect(c.stillFailing).toBe(2);
    expect(c.added).toEqual([{ agent: 'zeta' }]);
    expect(c.removed).toEqual([{ agent: 'epsilon' }]);
    expect(cli['night3']!.stdout).toContain('--fail-on regressions: no regression since the compared run');
    expect(reportSchemaErrors(r)).toBeNull();
  });

  test('sharded over two machines, then merged: the merge compares and gates exactly like one run', async () => {
    expect(cli['merged']!.code, cli['merged']!.stdout + cli['merged']!.stderr).toBe(0);
    const merged = await report(out['merged']!);
    const single = await report(out['night3']!);
    const strip = (r: Report) => ({ ...r.comparison!, flaky: ids(r.comparison!.flaky) });
    expect(strip(merged)).toEqual(strip(single));
    expect([merged.exitCode, merged.failOn]).toEqual([0, 'regressions']);
    expect(cli['merged']!.stdout.trimStart()).toMatch(/^Since the run of /);
  });

  test('without re-verification (--no-reverify) the flaky failure is a new failure, and a regression (exit 1)', async () => {
    expect(cli['night3-no-reverify']!.code, cli['night3-no-reverify']!.stderr).toBe(1);
    const r = await report(out['night3-no-reverify']!);
    const delta = r.agents.find((a) => a.name === 'delta')!.outcomes.find((o) => o.check === ECHO.check)!;
    expect([delta.status, delta.flaky]).toEqual(['fail', undefined]);
    const c = r.comparison!;
    expect(ids(c.newFailures)).toEqual([
      { agent: 'alpha', ...ECHO },
      { agent: 'delta', ...ECHO },
    ]);
    expect(c.flaky).toEqual([]);
    expect(c.newlyUnreachable.map((a) => a.agent)).toEqual(['gamma']);
    expect(c.added).toEqual([{ agent: 'zeta' }]);
    expect(c.removed).toEqual([{ agent: 'epsilon' }]);
    expect(cli['night3-no-reverify']!.stderr).not.toContain('re-verif');
    expect(cli['night3']!.stderr).toContain('delta  re-verified: 1 flaky, 0 confirmed');
  });
});

describe('nightly options that are usage errors (exit 2, nothing runs)', () => {
  test('--fail-on regressions without --compare; a --compare file that is not a report.json', async () => {
    const noCompare = await runCli(['run', '--fail-on', 'regressions']);
    expect(noCompare.code).toBe(2);
    expect(noCompare.stderr).toContain('--fail-on regressions needs --compare PREVIOUS_REPORT_JSON');
    const dir = await tmp('bad-compare');
    const missing = await runCli(['run', '--compare', join(dir, 'nope.json'), '--out', join(dir, 'out')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--compare ${join(dir, 'nope.json')}: cannot read it (ENOENT)`);
    expect(existsSync(join(dir, 'out', 'report.json'))).toBe(false);
  }, 60_000);
});
