// Baselines that cannot rot, live (the CLI as a child process against small stdio sellers of our own):
// a stale `expect` entry fails baseline.stale, a mistyped check id is a config error before anything runs,
// a mistyped tool is a config error once the agent's tools/list shows it (exit 2, the reports still
// written), --no-baseline makes baselined failures count again, every report says whether baselines
// applied, and --write-baseline writes a baseline that, pasted back, makes the run pass.
// This file is the proof baseline.stale names (`provenBy`): no seller fault can trip a config rule.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, test } from 'vitest';
import { junitCases, runCli, tempDirs } from './cli.helpers.ts';
import { inventory, NIGHTLY_SELLER, reportSchemaErrors, type Inventory } from './nightly.helpers.ts';

const tmp = tempDirs();

interface Outcome {
  check: string;
  tool: string;
  status: string;
  message: string;
  pointer?: string;
  baseline?: string;
}
interface Report {
  exitCode: number;
  configErrors: string[];
  baselines: { state: string; entries: number; text: string };
  agents: Array<{ name: string; baseline?: { entries: number; applied: boolean }; configErrors?: string[]; outcomes: Outcome[] }>;
}

const ECHO = 'envelope.context-echo';
const CAPS = 'get_adcp_capabilities';
const STALE = 'baseline.stale';

async function report(dir: string): Promise<Report> {
  return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
}
const outcomesOf = (r: Report, agent: string, check: string) =>
  r.agents.find((a) => a.name === agent)!.outcomes.filter((o) => o.check === check);
/** The context echo of the probe (the harness also makes a call without context, where the echo does not apply). */
const echoOf = (r: Report, agent: string) => outcomesOf(r, agent, ECHO).filter((o) => o.tool === CAPS);

describe('expect baselines', () => {
  let dir: string;
  let inv: Inventory;

  beforeAll(async () => {
    dir = await tmp('baselines');
    inv = inventory(dir);
    // alpha fails (its failure is baselined); beta is clean (its entry is stale).
    await inv.set({ alpha: 'broken', beta: 'clean' });
  });

  test('an entry that matched nothing fails baseline.stale naming the entry; one that matched passes (exit 1)', async () => {
    const config = await inv.writeConfig(
      ['alpha', 'beta'],
      { alpha: { [`${ECHO} › ${CAPS}`]: 'drops context (TICKET-7)' }, beta: { [ECHO]: 'fixed last week' } },
      join(dir, 'stale.yaml'),
    );
    const out = join(dir, 'stale');
    const cli = await runCli(['run', '--config', config, '--out', out]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(1);
    const r = await report(out);
    expect(echoOf(r, 'alpha')).toEqual([expect.objectContaining({ status: 'fail', baseline: 'drops context (TICKET-7)' })]);
    expect(outcomesOf(r, 'alpha', STALE)).toEqual([expect.objectContaining({ tool: `${ECHO} › ${CAPS}`, status: 'pass' })]);
    expect(outcomesOf(r, 'beta', STALE)).toEqual([
      expect.objectContaining({
        tool: ECHO,
        status: 'fail',
        pointer: `/agents/1/expect/${ECHO}`,
        message: expect.stringContaining(`nothing to excuse: ${ECHO} gave 1 pass`),
      }),
    ]);
    expect(r.configErrors).toEqual([]);
    expect(r.baselines).toEqual({
      state: 'applied',
      entries: 2,
      text: 'baselines: applied (2 expect entries; 1 expected failure not counted)',
    });
    expect(r.agents.map((a) => a.baseline)).toEqual([
      { entries: 1, applied: true },
      { entries: 1, applied: true },
    ]);
    expect(reportSchemaErrors(r)).toBeNull();
    // Every report says whether baselines applied; the stale entry is a failure everywhere.
    expect(cli.stdout).toContain('baselines: applied (2 expect entries; 1 expected failure not counted)');
    expect(cli.stdout).toMatch(/✗ beta {2}baseline\.stale › envelope\.context-echo {2}\[MUST\]/);
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toContain(
      'baselines: applied (2 expect entries; 1 expected failure not counted)',
    );
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain(
      '<p id="baselines">baselines: applied (2 expect entries; 1 expected failure not counted)</p>',
    );
    expect(await junitCases(join(out, 'junit.xml'))).toContain(`beta :: beta &gt; ${STALE} › ${ECHO}`);
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toMatch(
      /name="beta &gt; baseline\.stale › envelope\.context-echo"[^>]*>\s*<failure/,
    );
  }, 120_000);

  test('an entry naming an unknown check id is a config error with its JSON pointer: exit 2, nothing runs', async () => {
    const config = join(dir, 'typo-id.yaml');
    const doc = {
      defaults: { expect: { 'error.codee': 'from the defaults' } },
      agents: [{ name: 'alpha', transport: 'stdio', command: process.execPath, args: [NIGHTLY_SELLER, join(dir, 'alpha.state.json')] }],
    };
    await writeFile(config, stringify(doc));
    const out = join(dir, 'typo-id');
    const cli = await runCli(['run', '--config', config, '--out', out]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(`${config}: /defaults/expect/error.codee: 'error.codee' is not a check id (did you mean 'error.code'?)`);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    // The agent's own entry points into the agent.
    await writeFile(
      config,
      stringify({ agents: [{ ...doc.agents[0], expect: { 'envelope.contxt-echo › get_adcp_capabilities': 'typo' } }] }),
    );
    const own = await runCli(['run', '--config', config, '--out', out]);
    expect(own.code).toBe(2);
    expect(own.stderr).toContain(
      `${config}: /agents/0/expect/envelope.contxt-echo › get_adcp_capabilities: 'envelope.contxt-echo' is not a check id (did you mean 'envelope.context-echo'?)`,
    );
    expect(existsSync(join(out, 'report.json'))).toBe(false);
  }, 60_000);

  test('an entry naming a tool the agent does not expose: a config error once tools/list shows it (exit 2), reports written', async () => {
    const config = await inv.writeConfig(
      ['alpha', 'beta'],
      { alpha: { [`${ECHO} › ${CAPS}`]: 'known' }, beta: { [`${ECHO} › get_adcp_capabilitie`]: 'typo' } },
      join(dir, 'typo-tool.yaml'),
    );
    const out = join(dir, 'typo-tool');
    const cli = await runCli(['run', '--config', config, '--out', out]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(2);
    const message = `${config}: /agents/1/expect/${ECHO} › get_adcp_capabilitie: names tool 'get_adcp_capabilitie', which agent 'beta' does not expose (its tools/list: ${CAPS})`;
    expect(cli.stderr).toContain(message);
    const r = await report(out);
    expect(r.exitCode).toBe(2);
    expect(r.configErrors).toEqual([message]);
    expect(r.agents[1]!.configErrors).toEqual([message]);
    expect(outcomesOf(r, 'beta', STALE)).toEqual([
      expect.objectContaining({
        tool: `${ECHO} › get_adcp_capabilitie`,
        status: 'fail',
        message: expect.stringContaining(`'get_adcp_capabilitie' is not in its tools/list (${CAPS})`),
      }),
    ]);
    expect(cli.stdout).toContain('Config errors (1; exit 2: fix the config)');
    expect(reportSchemaErrors(r)).toBeNull();
  }, 120_000);

  test('--no-baseline: baselined failures count again, the entries are not judged, and every report says so', async () => {
    const config = await inv.writeConfig(
      ['alpha'],
      { alpha: { [`${ECHO} › ${CAPS}`]: 'drops context (TICKET-7)' } },
      join(dir, 'no-baseline.yaml'),
    );
    const applied = await runCli(['run', '--config', config, '--out', join(dir, 'applied'), '--reporter', 'json,summary']);
    expect(applied.code, applied.stdout).toBe(0);
    const out = join(dir, 'no-baseline');
    const cli = await runCli(['run', '--config', config, '--out', out, '--no-baseline']);
    expect(cli.code, cli.stdout).toBe(1);
    const r = await report(out);
    expect(echoOf(r, 'alpha')).toEqual([expect.objectContaining({ status: 'fail' })]);
    expect(echoOf(r, 'alpha')[0]!.baseline).toBeUndefined();
    expect(outcomesOf(r, 'alpha', STALE).map((o) => o.status)).toEqual(['not-applicable']);
    const text = 'baselines: NOT applied (--no-baseline): 1 expect entry ignored, every failure counts';
    expect(r.baselines).toEqual({ state: 'ignored', entries: 1, text });
    expect(cli.stdout).toContain(text);
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toContain(text);
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain(text);
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toContain(
      `<property name="baseline" value="not applied (--no-baseline): 1 entry"`,
    );
  }, 120_000);

  test('--write-baseline writes the failures as expect blocks with reasons to fill in; pasted back, the run passes', async () => {
    await inv.set({ gamma: 'broken', delta: 'down' });
    const config = await inv.writeConfig(
      ['alpha', 'beta', 'gamma', 'delta'],
      { alpha: { [`${ECHO} › ${CAPS}`]: 'drops context (TICKET-7)' } },
      join(dir, 'write.yaml'),
    );
    const file = join(dir, 'baseline.yaml');
    const cli = await runCli(['run', '--config', config, '--out', join(dir, 'write'), '--reporter', 'json', '--write-baseline', file]);
    expect(cli.code).toBe(3); // delta is down
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^# Written by adcp-conformance \S+ --write-baseline: the failures of the run started /);
    expect(text).toContain('# beta: no failure to baseline');
    expect(text).toContain('# delta: unreachable in this run, nothing written');
    const written = parse(text) as { agents: Array<{ name: string; expect: Record<string, string> }> };
    // One entry per check: the echo fails on every tool it could judge, so the check id alone (the reason kept).
    expect(written.agents).toEqual([
      { name: 'alpha', expect: { [ECHO]: 'drops context (TICKET-7)' } },
      { name: 'gamma', expect: { [ECHO]: 'TODO: why this failure is expected (a ticket, a release)' } },
    ]);
    // Pasted into the config (reasons filled in): the run is clean again.
    const pasted = await inv.writeConfig(
      ['alpha', 'gamma'],
      Object.fromEntries(written.agents.map((a) => [a.name, a.expect])),
      join(dir, 'pasted.yaml'),
    );
    const again = await runCli(['run', '--config', pasted, '--out', join(dir, 'pasted'), '--reporter', 'json']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const r = await report(join(dir, 'pasted'));
    expect(r.agents.flatMap((a) => a.outcomes.filter((o) => o.check === STALE).map((o) => o.status))).toEqual(['pass', 'pass']);
  }, 180_000);

  test('--write-baseline to a place that cannot be written is a usage error before anything runs', async () => {
    const cli = await runCli([
      'run',
      '--config',
      await inv.writeConfig(['alpha']),
      '--out',
      join(dir, 'x'),
      '--write-baseline',
      '/proc/nope/baseline.yaml',
    ]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('--write-baseline /proc/nope/baseline.yaml: not writable');
  }, 60_000);
});
