// Writes the report files of a finished run into --out. Every file is first written in full beside its
// final name and only then renamed over it, all renames at the end: a run that dies part-way leaves the
// previous run's reports (or none), never a half-written one that looks complete.
// Also the check that --out / --record can be written, made before anything runs (exit 2 at once).
import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { reportJsonText } from '../../report/json.ts';
import { decorateJunit, type JunitSuiteInfo } from '../../report/junit.ts';
import { renderSummaryMarkdown } from '../../report/markdown.ts';
import { renderHtmlReport } from '../../report/html.ts';
import { badgeFiles } from '../../report/badge.ts';
import type { RunReport } from '../../report/model.ts';
import { summarize, type RunSummary } from '../../report/summary.ts';
import { UsageError, type ReporterName } from '../options.ts';

export const JUNIT_FILE = 'junit.xml';

/** GitHub's limit on one step's summary (docs.github.com: "Adding a job summary"). */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;

/**
 * `junitSource`: where vitest's junit reporter wrote its XML (a private scratch file, never --out).
 * When vitest wrote no complete XML, there is no junit.xml for this run: a stale one is removed.
 * Under GitHub Actions (`GITHUB_STEP_SUMMARY` names a file) the Markdown summary is appended there too.
 */
export async function writeReports(
  report: RunReport,
  junit: readonly JunitSuiteInfo[],
  outDir: string,
  reporters: ReadonlySet<ReporterName>,
  junitSource: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  summary: RunSummary = summarize(report),
): Promise<string[]> {
  await makeDirectory(outDir);
  const staged: Array<[string, string]> = [];
  // Each file is written as soon as it is rendered (so no two are held at once; report.json in pieces, one
  // agent at a time), beside its final name; `name` may be `badges/x.json`. The renames all come at the end.
  const stage = async (name: string, content: string | Iterable<string>): Promise<void> => {
    const final = join(outDir, name);
    const temp = besideOf(final);
    staged.push([temp, final]);
    if (typeof content === 'string') return writeFile(temp, content);
    const file = await open(temp, 'w');
    try {
      for (const piece of content) await file.write(piece);
    } finally {
      await file.close();
    }
  };
  const stepSummary = env['GITHUB_STEP_SUMMARY'];
  let markdown: string;
  try {
    if (reporters.has('junit')) {
      // vitest's junit reporter wrote the XML; add what it has no place for (see report/junit.ts).
      const xml = await readFile(junitSource, 'utf8').catch(() => '');
      if (/<\/testsuites>\s*$/.test(xml)) await stage(JUNIT_FILE, decorateJunit(xml, junit));
      else await rm(join(outDir, JUNIT_FILE), { force: true });
    }
    if (reporters.has('json')) await stage('report.json', reportJsonText(report));
    markdown = reporters.has('markdown') || stepSummary ? renderSummaryMarkdown(report, undefined, summary) : '';
    if (reporters.has('markdown')) await stage('summary.md', markdown);
    if (reporters.has('html')) await stage('report.html', renderHtmlReport(report, summary));
    if (reporters.has('badge')) {
      await makeDirectory(join(outDir, 'badges'));
      for (const [name, content] of badgeFiles(report)) await stage(name, content);
    }
    for (const [temp, file] of staged) await rename(temp, file);
  } finally {
    await Promise.all(staged.map(([temp]) => rm(temp, { force: true })));
  }
  const written = staged.map(([, file]) => file);
  if (stepSummary && (await appendStepSummary(stepSummary, markdown)) !== 'failed') written.push(stepSummary);
  return written;
}

/**
 * Appends the summary to a GitHub step summary file (never overwrites: earlier steps' text stays). GitHub
 * rejects a step summary over 1 MiB, so when this one would take the file past it, a one-line note goes
 * there instead; nothing when even the note would not fit. A file that cannot be written is said on
 * stderr: the run's own reports are already written, and its exit code stands.
 */
export async function appendStepSummary(file: string, markdown: string): Promise<'appended' | 'note' | 'failed'> {
  try {
    const size = (await stat(file).catch(() => undefined))?.size ?? 0;
    const text = markdown.endsWith('\n') ? markdown : `${markdown}\n`;
    const bytes = Buffer.byteLength(text);
    if (size + bytes <= STEP_SUMMARY_LIMIT) {
      await appendFile(file, text);
      return 'appended';
    }
    const note = `\n**adcp-conformance**: this run's summary (${Math.ceil(bytes / 1024)} KiB) would take the step summary past GitHub's 1 MiB limit: read it in the run's reports.\n`;
    if (size + Buffer.byteLength(note) <= STEP_SUMMARY_LIMIT) await appendFile(file, note);
    return 'note';
  } catch (err) {
    process.stderr.write(
      `adcp-conformance: could not append the summary to GITHUB_STEP_SUMMARY (${err instanceof Error ? err.message : String(err)})\n`,
    );
    return 'failed';
  }
}

/**
 * --out (a directory) and --record (a file) must be writable before anything runs, or the whole run is
 * lost at its end: a UsageError (exit 2) at once instead. Proven by doing it: the directories are made
 * and a probe file is created and removed in each (permission bits say nothing for root, a read-only
 * mount or /proc).
 */
export async function checkOutputPaths(out: string, record?: string, writeBaseline?: string): Promise<void> {
  const check = async (flag: string, path: string, dir: boolean): Promise<void> => {
    try {
      await ensureWritableDir(dir ? path : dirname(path));
      if (!dir) {
        const existing = await stat(path).catch(() => undefined);
        if (existing?.isDirectory()) throw new Error('is a directory');
        if (existing) await (await open(path, 'r+')).close(); // opened for writing, not truncated
      }
    } catch (err) {
      throw new UsageError(`${flag} ${path}: not writable (${err instanceof Error ? err.message : String(err)})`);
    }
  };
  await check('--out', resolve(out), true);
  if (record !== undefined) await check('--record', resolve(record), false);
  if (writeBaseline !== undefined) await check('--write-baseline', resolve(writeBaseline), false);
}

/** Where a file is written before it is renamed over `file`: the same directory, so the rename is atomic. */
const besideOf = (file: string): string => join(dirname(file), `.${basename(file)}.${randomUUID()}.tmp`);

/** A file written whole beside its final name, then renamed over it (as every report is). */
export async function writeFileAtomically(file: string, content: string): Promise<void> {
  const temp = besideOf(file);
  try {
    await writeFile(temp, content);
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
}

/** Makes `dir` (and its parents) and proves a file can be created in it. */
export async function ensureWritableDir(dir: string): Promise<void> {
  await makeDirectory(dir);
  const probe = join(dir, `.adcp-conformance-${randomUUID()}.probe`);
  await writeFile(probe, '', { flag: 'wx', mode: 0o600 });
  await rm(probe, { force: true });
}

/**
 * `mkdir -p`, one level at a time. Not `mkdir(dir, { recursive: true })`: in Node 20 that spins forever
 * (busy, deaf to signals) under a parent that exists but refuses new entries, such as /proc/x.
 */
export async function makeDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(dir); ;) {
    const found = await stat(at).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (found) {
      if (!found.isDirectory()) throw new Error(`${at} is not a directory`);
      break;
    }
    missing.push(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const level of missing.reverse()) {
    try {
      await mkdir(level);
    } catch (err) {
      // Made meanwhile by someone else: fine if it is a directory.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !(await stat(level)).isDirectory()) throw err;
    }
  }
}
