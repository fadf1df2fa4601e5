// Running the CLI as a user would: a child process, real sellers, real files.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll } from 'vitest';
import { join, resolve } from 'node:path';
import { TEST_TMP_ENV } from '../setup/tmp-root.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SHARED = resolve(ROOT, '..', 'shared');
export const JUNIT_XSD = join(SHARED, 'junit', 'junit-10.xsd');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin', 'adcp-conformance.js'), ...args],
      // CI/NO_COLOR: plain progress lines and no colour, as in a CI log.
      { cwd: ROOT, env: { ...process.env, CI: '1', NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });
}

export interface ReportJsonShape {
  schemaVersion: number;
  exitCode: number;
  agents: Array<{
    name: string;
    transport: string;
    reachable: boolean;
    protocolVersion: string | null;
    outcomes: Array<{ check: string; tool: string; status: string; message: string; baseline?: string }>;
    layers: Record<string, number>;
  }>;
  summary: { pass: number; fail: number; warn: number; notApplicable: number; untested: number; baselined: number };
}

export async function readReport(dir: string): Promise<ReportJsonShape> {
  return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as ReportJsonShape;
}

/** `<testsuite name>` → its `<testcase name>`s, from a JUnit file. */
export async function junitCases(file: string): Promise<string[]> {
  const xml = await readFile(file, 'utf8');
  const cases: string[] = [];
  let suite = '';
  for (const m of xml.matchAll(/<(testsuite|testcase)\b[^>]*?\sname="([^"]*)"/g)) {
    if (m[1] === 'testsuite') suite = m[2] ?? '';
    else cases.push(`${suite} :: ${m[2] ?? ''}`);
  }
  return cases.sort();
}

export const xmllintAvailable = (() => {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
export const canValidateJunit = xmllintAvailable && existsSync(JUNIT_XSD);

export function validateJunit(file: string): void {
  execFileSync('xmllint', ['--noout', '--schema', JUNIT_XSD, file], { stdio: 'pipe' });
}

/** Outcomes as comparable strings, per agent. */
export function outcomeSet(report: ReportJsonShape): string[] {
  return report.agents.flatMap((a) => a.outcomes.map((o) => `${a.name} :: ${o.check} › ${o.tool} :: ${o.status} :: ${o.message}`)).sort();
}

/**
 * A maker of temporary directories for one test file; all of them are removed after the file (called at a
 * file's top level), and in any case when the test run ends: they are made under the run's own scratch
 * directory (test/setup/tmp-root.ts) when there is one.
 */
export function tempDirs(): (name: string) => Promise<string> {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });
  return async (name) => {
    const runRoot = process.env[TEST_TMP_ENV];
    const dir = await mkdtemp(join(runRoot && existsSync(runRoot) ? runRoot : tmpdir(), `adcp-cli-${name}-`));
    dirs.push(dir);
    return dir;
  };
}
