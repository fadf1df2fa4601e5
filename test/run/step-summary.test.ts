// Under GitHub Actions the Markdown summary is appended to the file GITHUB_STEP_SUMMARY names: after what
// earlier steps wrote (never over it), and never past GitHub's 1 MiB cap on a step summary.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { renderSummaryMarkdown } from '../../harness/report/markdown.ts';
import { appendStepSummary, STEP_SUMMARY_LIMIT, writeReports } from '../../harness/run/vitest/write-reports.ts';
import { sampleReport } from '../report/fixtures.ts';

const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tmp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'adcp-step-summary-'));
  dirs.push(dir);
  return dir;
}

describe('GITHUB_STEP_SUMMARY', () => {
  test('writeReports appends summary.md to it, after what an earlier step wrote, and lists it', async () => {
    const dir = await tmp();
    const out = join(dir, 'out');
    const summaryFile = join(dir, 'step_summary');
    await writeFile(summaryFile, '# build\nearlier step\n');
    const written = await writeReports(sampleReport(), [], out, new Set(['json', 'markdown'] as const), join(dir, 'none.xml'), {
      GITHUB_STEP_SUMMARY: summaryFile,
    });
    const markdown = await readFile(join(out, 'summary.md'), 'utf8');
    expect(await readFile(summaryFile, 'utf8')).toBe(`# build\nearlier step\n${markdown}`);
    expect(written).toContain(summaryFile);
  });

  test('appended even when summary.md is not one of the reports; a second run appends again', async () => {
    const dir = await tmp();
    const summaryFile = join(dir, 'step_summary');
    const env = { GITHUB_STEP_SUMMARY: summaryFile };
    await writeReports(sampleReport(), [], join(dir, 'out'), new Set(['json'] as const), join(dir, 'none.xml'), env);
    await writeReports(sampleReport(), [], join(dir, 'out'), new Set(['json'] as const), join(dir, 'none.xml'), env);
    const markdown = renderSummaryMarkdown(sampleReport());
    expect(await readFile(summaryFile, 'utf8')).toBe(markdown + markdown);
  });

  test('unset or empty: nothing is appended anywhere', async () => {
    const dir = await tmp();
    const written = await writeReports(sampleReport(), [], join(dir, 'out'), new Set(['markdown'] as const), join(dir, 'none.xml'), {
      GITHUB_STEP_SUMMARY: '',
    });
    expect(written).toEqual([join(dir, 'out', 'summary.md')]);
  });

  test('a summary that would pass 1 MiB: a short note instead, the file stays under the cap', async () => {
    const dir = await tmp();
    const file = join(dir, 'step_summary');
    const earlier = 'x'.repeat(STEP_SUMMARY_LIMIT - 10_000);
    await writeFile(file, earlier);
    expect(await appendStepSummary(file, 'y'.repeat(20_000))).toBe('note');
    const text = await readFile(file, 'utf8');
    expect(text.startsWith(earlier)).toBe(true);
    expect(text.slice(earlier.length)).toMatch(/^\n\*\*adcp-conformance\*\*: this run's summary \(20 KiB\) would take .* 1 MiB limit/);
    expect((await stat(file)).size).toBeLessThanOrEqual(STEP_SUMMARY_LIMIT);
  });

  test('a file with no room even for the note is left as it is', async () => {
    const dir = await tmp();
    const file = join(dir, 'step_summary');
    await writeFile(file, 'x'.repeat(STEP_SUMMARY_LIMIT - 5));
    expect(await appendStepSummary(file, 'summary')).toBe('note');
    expect((await stat(file)).size).toBe(STEP_SUMMARY_LIMIT - 5);
  });

  test('a path that cannot be appended to is said on stderr, and the reports still stand', async () => {
    const dir = await tmp();
    const said: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (said.push(String(chunk)), true));
    const written = await writeReports(sampleReport(), [], join(dir, 'out'), new Set(['markdown'] as const), join(dir, 'none.xml'), {
      GITHUB_STEP_SUMMARY: dir, // a directory
    });
    expect(written).toEqual([join(dir, 'out', 'summary.md')]);
    expect(said.join('')).toMatch(/could not append the summary to GITHUB_STEP_SUMMARY/);
  });
});
