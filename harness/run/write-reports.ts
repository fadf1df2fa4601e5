// Writes the report files of a finished run into --out.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildReportJson } from '../report/json.ts';
import { decorateJunit, type JunitSuiteInfo } from '../report/junit.ts';
import { renderSummaryMarkdown } from '../report/markdown.ts';
import type { RunReport } from '../report/model.ts';
import type { ReporterName } from './options.ts';
import { JUNIT_FILE } from './vitest-driver.ts';

export async function writeReports(report: RunReport, junit: readonly JunitSuiteInfo[], outDir: string, reporters: ReadonlySet<ReporterName>): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  if (reporters.has('junit')) {
    // vitest's junit reporter wrote the file; add what it has no place for (see report/junit.ts).
    const file = join(outDir, JUNIT_FILE);
    await writeFile(file, decorateJunit(await readFile(file, 'utf8'), junit));
    written.push(file);
  }
  if (reporters.has('json')) {
    const file = join(outDir, 'report.json');
    await writeFile(file, JSON.stringify(buildReportJson(report), null, 2) + '\n');
    written.push(file);
  }
  if (reporters.has('markdown')) {
    const file = join(outDir, 'summary.md');
    await writeFile(file, renderSummaryMarkdown(report));
    written.push(file);
  }
  return written;
}
