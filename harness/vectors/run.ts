// Run vector files and render the result: one `FAIL <file> <id>: <diff>` line per failing case, one
// `SKIP …` line per skipped case, and a last line `N passed, N failed[, N skipped]`.
import { runCase, type CaseResult } from './cases.ts';
import { loadVectorFile } from './load.ts';

export interface FileCaseResult {
  file: string;
  result: CaseResult;
}

export type RunSummary =
  | { ok: true; cases: FileCaseResult[]; passed: number; failed: number; skipped: number }
  /** A file could not be read or parsed: nothing ran. */
  | { ok: false; message: string };

export async function runVectorFiles(files: readonly string[]): Promise<RunSummary> {
  const loaded = await Promise.all(files.map((f) => loadVectorFile(f)));
  const broken = loaded.filter((l) => !l.ok);
  if (broken.length) return { ok: false, message: broken.map((b) => (b.ok ? '' : b.message)).join('\n') };
  const cases: FileCaseResult[] = [];
  for (const l of loaded) {
    if (!l.ok) continue;
    for (let i = 0; i < l.vectors.length; i++) cases.push({ file: l.file, result: await runCase(l.vectors[i], i) });
  }
  const count = (s: CaseResult['status']) => cases.filter((c) => c.result.status === s).length;
  return { ok: true, cases, passed: count('pass'), failed: count('fail'), skipped: count('skip') };
}

/** Diffs may quote seller-shaped strings: keep each report line on one line. */
function oneLine(s: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');
}

export function formatSummary(summary: Extract<RunSummary, { ok: true }>): string[] {
  const lines: string[] = [];
  for (const { file, result } of summary.cases) {
    if (result.status === 'fail') lines.push(oneLine(`FAIL ${file} ${result.id}: ${result.diff}`));
  }
  for (const { file, result } of summary.cases) {
    if (result.status === 'skip') lines.push(oneLine(`SKIP ${file} ${result.id}: ${result.reason}`));
  }
  const tail = `${summary.passed} passed, ${summary.failed} failed${summary.skipped ? `, ${summary.skipped} skipped` : ''}`;
  lines.push(tail);
  return lines;
}
