// Findings grouped by cause, through the CLI: the reference seller with one bug (it never echoes the
// context) that shows on many calls, beside a seller that cannot be started. The terminal, summary.md
// and report.html each show that bug as one finding; the last line printed is the gate, stating the
// exit code the process returned; --quiet prints the table, one line per failing check and the gate.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { readReport, runCli, tempDirs, type CliResult, type ReportJsonShape } from './cli.helpers.ts';

const tmp = tempDirs();
const ECHO = 'envelope.context-echo';

describe('a seller with one bug on many calls, and one that is down', () => {
  let dir: string;
  let run: CliResult;
  let report: ReportJsonShape;
  let failing: number;

  beforeAll(async () => {
    dir = await tmp('findings');
    const faulty = stdioSellerCommand({ faults: ['context-not-echoed'] });
    const config = join(dir, 'agents.json');
    await writeFile(
      config,
      JSON.stringify({
        agents: [
          { name: 'faulty', transport: 'stdio', ...faulty },
          { name: 'gone', transport: 'stdio', command: 'adcp-conformance-no-such-command-h3' },
        ],
      }),
    );
    run = await runCli(['run', '--config', config, '--out', join(dir, 'out'), '--record', join(dir, 'session.jsonl')]);
    report = await readReport(join(dir, 'out'));
    failing = report.agents[0]!.outcomes.filter((o) => o.check === ECHO && o.status === 'fail').length;
  }, 180_000);

  test('report.json keeps every failing call; the exit code is the gate’s', () => {
    expect(failing).toBeGreaterThanOrEqual(7);
    expect(run.code, run.stdout + run.stderr).toBe(3);
    expect(report.exitCode).toBe(3);
  });

  test('the terminal: one block for the bug, its calls counted; the gate is the last line', () => {
    const blocks = run.stdout.split('\n').filter((l) => /^ {2}✗ faulty {2}envelope\.context-echo\b/.test(l));
    expect(blocks).toEqual([
      expect.stringMatching(new RegExp(`^ {2}✗ faulty {2}envelope\\.context-echo {2}\\[MUST\\] {2}failed on ${failing} of \\d+ calls$`)),
    ]);
    expect(run.stdout.match(/^ {6}fix: +copy the request's `context`/gm)).toHaveLength(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('gate: FAIL — 1 nonconformant, 1 unreachable (exit 3)');
    expect(lines.at(-2)).toMatch(/^⚠ 2 agents: 1 nonconformant · 1 unreachable( \([^)]+\))? — incomplete: /);
  });

  test('summary.md: one row for the bug', async () => {
    const md = await readFile(join(dir, 'out', 'summary.md'), 'utf8');
    const rows = md.split('\n').filter((l) => l.includes(`\`${ECHO}\``));
    expect(rows).toEqual([
      expect.stringMatching(new RegExp(`^\\| faulty \\| \`${ECHO}\` \\| \\*\\*${failing} of \\d+\\*\\*: get_products`)),
    ]);
    expect(md).toContain('**gate: FAIL — 1 nonconformant, 1 unreachable (exit 3)**');
  });

  test('report.html: one finding for the bug, in the failures section', async () => {
    const html = await readFile(join(dir, 'out', 'report.html'), 'utf8');
    const findings = [...html.matchAll(/<div class="finding"[^>]*data-check="envelope\.context-echo"[^>]*>/g)].map((m) => m[0]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toContain(`data-outcomes="${failing}"`);
    expect(findings[0]).toContain('data-status="fail"');
  });

  test('--quiet: the table, one line per failing check, the headline and the gate', async () => {
    const quiet = await runCli(['run', '--replay', join(dir, 'session.jsonl'), '--out', join(dir, 'quiet'), '--quiet']);
    expect(quiet.code, quiet.stdout + quiet.stderr).toBe(run.code);
    const lines = quiet.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => /^ {2}[✗≈!] /.test(l)).map((l) => l.split('  ').slice(1, 3).join('  '))).toEqual([
      `✗ faulty  ${ECHO}`,
      '✗ gone  transport.initialize › initialize',
    ]);
    expect(quiet.stdout).not.toMatch(/^ {6}(on|at|sent|fix|spec): /m);
    expect(lines.at(-1)).toBe('gate: FAIL — 1 nonconformant, 1 unreachable (exit 3)');
    expect(lines.length).toBeLessThan(20);
  });
});
