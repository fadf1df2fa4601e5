// Writes the report files of a finished run into --out. Every file is first written in full beside its
// final name and only then renamed over it, all renames at the end: a run that dies part-way leaves the
// previous run's reports (or none), never a half-written one that looks complete.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildReportJson } from '../report/json.ts';
import { decorateJunit, type JunitSuiteInfo } from '../report/junit.ts';
import { renderSummaryMarkdown } from '../report/markdown.ts';
import type { RunReport } from '../report/model.ts';
import type { ReporterName } from './options.ts';

export const JUNIT_FILE = 'junit.xml';

/**
 * `junitSource`: where vitest's junit reporter wrote its XML (a private scratch file, never --out).
 * When vitest wrote no complete XML, there is no junit.xml for this run: a stale one is removed.
 */
export async function writeReports(report: RunReport, junit: readonly JunitSuiteInfo[], outDir: string, reporters: ReadonlySet<ReporterName>, junitSource: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files: Array<[string, string]> = [];
  if (reporters.has('junit')) {
    // vitest's junit reporter wrote the XML; add what it has no place for (see report/junit.ts).
    const xml = await readFile(junitSource, 'utf8').catch(() => '');
    if (/<\/testsuites>\s*$/.test(xml)) files.push([JUNIT_FILE, decorateJunit(xml, junit)]);
    else await rm(join(outDir, JUNIT_FILE), { force: true });
  }
  if (reporters.has('json')) files.push(['report.json', JSON.stringify(buildReportJson(report), null, 2) + '\n']);
  if (reporters.has('markdown')) files.push(['summary.md', renderSummaryMarkdown(report)]);

  const staged: Array<[string, string]> = [];
  try {
    for (const [name, content] of files) {
      const temp = join(outDir, `.${name}.${randomUUID()}.tmp`);
      staged.push([temp, join(outDir, name)]);
      await writeFile(temp, content);
    }
    for (const [temp, file] of staged) await rename(temp, file);
  } finally {
    await Promise.all(staged.map(([temp]) => rm(temp, { force: true })));
  }
  return staged.map(([, file]) => file);
}
