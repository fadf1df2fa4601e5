// `run --storyboards` end to end: the official storyboards through the harness's own proxy, their outcomes
// advisory (never the exit code unless --strict-storyboards), their calls judged by the whole catalog,
// and the corpus version in every report.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REFERENCE_WEBHOOK_JWKS, stdioSellerCommand } from '../../sellers/launch.ts';
import { canValidateJunit, runCli, tempDirs, validateJunit } from './cli.helpers.ts';

const tmp = tempDirs();

interface Report {
  exitCode: number;
  run: { storyboards?: { selection: string; corpusVersion: string; strict: boolean } };
  agents: Array<{
    name: string;
    verdict: string;
    outcomes: Array<{ check: string; tool: string; status: string; advisory?: boolean; message: string }>;
  }>;
}

async function runWith(
  name: string,
  faults: string[],
  extra: string[],
): Promise<{ code: number | null; stdout: string; report: Report; dir: string }> {
  const dir = await tmp(name);
  const { command, args } = stdioSellerCommand({ faults });
  const config = join(dir, 'agents.json');
  await writeFile(
    config,
    JSON.stringify({ agents: [{ name, transport: 'stdio', command, args, sandbox: true, webhookKeys: REFERENCE_WEBHOOK_JWKS }] }),
  );
  const cli = await runCli(['run', '--config', config, '--out', dir, '--storyboards', 'error_compliance,capability_discovery', ...extra]);
  return { code: cli.code, stdout: cli.stdout, report: JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report, dir };
}

describe('run --storyboards', () => {
  test('universal against the embedded reference seller over stdio and HTTP: every storyboard outcome passes or does not apply, JUnit is XSD-valid', async () => {
    const dir = await tmp('universal');
    const cli = await runCli(['run', '--storyboards', 'universal', '--out', dir]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.agents.map((a) => a.name)).toEqual(['reference-stdio', 'reference-http']);
    for (const a of report.agents) {
      const storyboard = a.outcomes.filter((o) => o.check.startsWith('storyboard.'));
      expect(storyboard.filter((o) => o.status === 'pass').length, a.name).toBeGreaterThan(100);
      const other = storyboard.filter((o) => o.status !== 'pass' && !(o.status === 'not-applicable' && o.message.trim() !== ''));
      expect(other.map((o) => `${a.name} ${o.status} ${o.check} › ${o.tool}: ${o.message}`)).toEqual([]);
    }
    expect(report.run.storyboards).toMatchObject({ selection: 'universal', corpusVersion: '3.0.6' });
    if (canValidateJunit) validateJunit(join(dir, 'junit.xml'));
  }, 300_000);

  test('a faulty seller: storyboard failures and envelope failures on the same storyboard calls; storyboards stay advisory', async () => {
    const { code, stdout, report, dir } = await runWith('altered', ['context-altered'], []);
    const a = report.agents[0]!;
    const storyboard = a.outcomes.filter((o) => o.check.startsWith('storyboard.'));
    expect(storyboard.length).toBeGreaterThan(5);
    expect(storyboard.every((o) => o.advisory === true)).toBe(true);
    expect(storyboard.some((o) => o.status === 'pass')).toBe(true);
    // The catalog judged the storyboard's own calls too.
    const onStoryboardCalls = a.outcomes.filter((o) => o.check === 'envelope.context-echo' && / \(storyboard /.test(o.tool));
    expect(onStoryboardCalls.some((o) => o.status === 'fail')).toBe(true);
    expect(code).toBe(1);
    expect(report.run.storyboards).toMatchObject({ corpusVersion: '3.0.6', strict: false });
    expect(stdout).toMatch(/Storyboards error_compliance,capability_discovery \(AdCP storyboard corpus 3\.0\.6; advisory/);
    if (canValidateJunit) validateJunit(join(dir, 'junit.xml'));
  }, 240_000);

  test('the clean seller stays conformant; --strict-storyboards makes storyboard failures count', async () => {
    const clean = await runWith('clean', [], []);
    expect(clean.report.agents[0]!.verdict).toBe('conformant');
    expect(clean.code).toBe(0);
    const failing = clean.report.agents[0]!.outcomes.filter((o) => o.check.startsWith('storyboard.') && o.status === 'fail');
    const strict = await runWith('strict', [], ['--strict-storyboards']);
    expect(strict.report.run.storyboards?.strict).toBe(true);
    expect(strict.code).toBe(failing.length ? 1 : 0);
    const usage = await runCli(['run', '--strict-storyboards']);
    expect(usage.code).toBe(2);
  }, 240_000);
});
