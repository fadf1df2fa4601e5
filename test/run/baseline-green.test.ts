// Baselines that can go green, as a seller's CI adopts them: a run with failures writes its baseline
// (`--write-baseline`), the entries go into the config, and the rerun passes (exit 0) with every report
// saying what was baselined — including the checks a baselined failure left untested (a call that timed
// out leaves every other rule on it unverified). Remove one entry and the run fails again (exit 1).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, test } from 'vitest';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { unstructuredPreconditions } from '../checks/preconditions.helpers.ts';
import { runCli, tempDirs } from './cli.helpers.ts';
import { reportSchemaErrors } from './nightly.helpers.ts';

const tmp = tempDirs();

interface Outcome {
  check: string;
  tool: string;
  status: string;
  message: string;
  baseline?: string;
  blockedBy?: string;
  coveredBy?: string;
}
interface Report {
  verdict: string;
  verdictLabel: string;
  exitCode: number;
  baselines: { state: string; entries: number; text: string };
  summary: Record<string, number>;
  agents: Array<{ name: string; verdict: string; verdictLabel: string; verdictText: string; outcomes: Outcome[] }>;
}

const readJson = async (dir: string): Promise<Report> => JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
/** The visible text of an HTML page (tags dropped, entities of the few characters we escape decoded). */
const htmlText = (html: string): string =>
  html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('a baseline written from a failing run makes the rerun pass', () => {
  let dir: string;
  let first: Report;
  let entries: Record<string, string>;
  const agentWith = (expect?: Record<string, string>) => {
    // Three bugs: get_signals never answers (every rule on that call stays untested), get_products drops
    // the context on every call of it, every AdCP error carries a 65-character code.
    const { command, args } = stdioSellerCommand({ faults: ['hang-on-call', 'context-not-echoed', 'error-code-65'] });
    return { name: 'faulty', transport: 'stdio', command, args, timeouts: { call: 3000 }, ...(expect ? { expect } : {}) };
  };
  const config = async (name: string, expect?: Record<string, string>) => {
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify({ agents: [agentWith(expect)] }));
    return file;
  };

  beforeAll(async () => {
    dir = await tmp('baseline-green');
    const file = join(dir, 'baseline.yaml');
    const cli = await runCli(['run', '--config', await config('bare'), '--out', join(dir, 'first'), '--write-baseline', file]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(1);
    first = await readJson(join(dir, 'first'));
    const written = parse(await readFile(file, 'utf8')) as { agents: Array<{ name: string; expect: Record<string, string> }> };
    expect(written.agents.map((a) => a.name)).toEqual(['faulty']);
    entries = written.agents[0]!.expect;
  }, 180_000);

  test('--write-baseline writes one entry per cause: the check id, or check › tool where the check passes on other tools', () => {
    const keys = Object.keys(entries);
    const checks = keys.map((k) => k.split(' › ')[0]);
    expect(new Set(checks).size).toBe(keys.length); // one entry per check id
    const failing = new Set(first.agents[0]!.outcomes.filter((o) => o.status === 'fail').map((o) => o.check));
    expect(new Set(checks)).toEqual(failing);
    // get_signals timed out, the other tools answered; only get_products drops the context; every error has the bad code.
    expect(keys).toEqual(expect.arrayContaining(['transport.call › get_signals', 'envelope.context-echo › get_products', 'error.code']));
    // The failing run had many more failing outcomes than entries (one per call and scenario step).
    expect(first.agents[0]!.outcomes.filter((o) => o.status === 'fail').length).toBeGreaterThan(keys.length + 5);
    // Every untested reason that names a check carries it as data.
    expect(unstructuredPreconditions(first.agents[0]!.outcomes)).toEqual([]);
  });

  test('pasted into the config: exit 0, conformant with baseline, and every report says what was baselined', async () => {
    const reasons = Object.fromEntries(Object.keys(entries).map((k) => [k, `known: ${k.split(' › ')[0]} (TICKET-1)`]));
    const out = join(dir, 'pasted');
    const cli = await runCli(['run', '--config', await config('pasted', reasons), '--out', out]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);

    const r = await readJson(out);
    expect(reportSchemaErrors(r)).toBeNull();
    expect(r).toMatchObject({ verdict: 'conformant', exitCode: 0, baselines: { state: 'applied', entries: Object.keys(entries).length } });
    const [a] = r.agents;
    // The verdict stays the enum --compare and the badge read; the label beside it says "with baseline".
    expect([r.verdictLabel, a!.verdict, a!.verdictLabel]).toEqual(['conformant with baseline', 'conformant', 'conformant with baseline']);
    expect(a!.verdictText).toMatch(
      /^conformant with baseline to AdCP \S+ per adcp-conformance \S+ \(\d+ baselined failures not counted\)$/,
    );
    expect(r.summary).toMatchObject({ fail: 0, untested: 0 });
    expect(r.summary.baselined).toBeGreaterThan(0);
    // What the timeout left untested is covered by its baselined failure, on that call only.
    const covered = a!.outcomes.filter((o) => o.coveredBy !== undefined);
    expect(r.summary.coveredByBaseline).toBe(covered.length);
    expect(covered).toContainEqual(
      expect.objectContaining({
        check: 'envelope.flat',
        tool: 'get_signals',
        status: 'untested',
        blockedBy: 'transport.call',
        coveredBy: 'transport.call › get_signals',
      }),
    );
    expect(covered.every((o) => o.status === 'untested')).toBe(true);
    for (const o of covered) {
      const [check, tool] = o.coveredBy!.split(' › ');
      expect(a!.outcomes.find((b) => b.check === check && b.tool === tool && b.status === 'fail')?.baseline).toBeDefined();
    }

    const applied = r.baselines.text;
    expect(applied).toMatch(
      /^baselines: applied \(\d+ expect entries; \d+ expected failures not counted, nor \d+ checks they left untested\)$/,
    );
    // Terminal, summary.md, HTML and JUnit: the verdict says "with baseline", and the baseline line is there.
    expect(cli.stdout).toContain(a!.verdictText);
    expect(cli.stdout).toMatch(/^faulty\s+conformant with baseline\s/m); // the table's verdict cell
    expect(cli.stdout).toContain(applied);
    const md = await readFile(join(out, 'summary.md'), 'utf8');
    expect(md).toContain('conformant with baseline');
    expect(md.replace(/\\/g, '')).toContain(applied);
    const html = htmlText(await readFile(join(out, 'report.html'), 'utf8'));
    expect(html).toContain(a!.verdictText);
    expect(html).toContain(applied);
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain(`<property name="verdict.text" value="${a!.verdictText}"/>`);
    expect(junit).toContain('<property name="verdict.label" value="conformant with baseline"/>');
    expect(junit).toContain(`<property name="count.coveredByBaseline" value="${covered.length}"/>`);
    expect(junit).toMatch(
      /<skipped message="untested: no answer: see transport\.call \(covered by the baselined failure transport\.call › get_signals\)"/,
    );
  }, 180_000);

  test('remove one entry: that failure counts again (exit 1)', async () => {
    const fewer = Object.fromEntries(
      Object.keys(entries)
        .filter((k) => k !== 'error.code')
        .map((k) => [k, 'known']),
    );
    const out = join(dir, 'fewer');
    const cli = await runCli(['run', '--config', await config('fewer', fewer), '--out', out, '--reporter', 'json']);
    expect(cli.code, cli.stdout + cli.stderr).toBe(1);
    const r = await readJson(out);
    expect(r.verdict).toBe('nonconformant');
    const code = r.agents[0]!.outcomes.filter((o) => o.check === 'error.code' && o.status === 'fail');
    expect(code.length).toBeGreaterThan(0);
    expect(code.every((o) => o.baseline === undefined)).toBe(true);
    // What error.code left untested is not covered any more.
    expect(r.agents[0]!.outcomes.some((o) => o.blockedBy === 'error.code' && o.coveredBy === undefined)).toBe(true);
  }, 180_000);
});
