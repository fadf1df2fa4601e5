// Exit codes of the paths docs/run.md § "Exit codes" promises, on the CLI as a child process: Ctrl-C mid-run
// (3, with reports that say incomplete), --merge-reports on bad directories and unwritable outputs (2,
// nothing run).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, runCli, tempDirs } from './cli.helpers.ts';

const tmp = tempDirs();

describe('Ctrl-C', () => {
  test('SIGINT while an agent is being probed: exit 3, and complete reports that say the run was cut short', async () => {
    const dir = await tmp('sigint');
    const config = join(dir, 'agents.json');
    // A stdio "seller" that never answers initialize.
    await writeFile(
      config,
      JSON.stringify({
        agents: [{ name: 'silent', transport: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }],
      }),
    );
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'adcp-conformance.js'), 'run', '--config', config, '--out', dir], {
      cwd: ROOT,
      env: { ...process.env, CI: '1', NO_COLOR: '1' },
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const connecting = new Promise<void>((done) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/silent\s+connect/.test(stderr)) done();
      }),
    );
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    await Promise.race([connecting, exited]);
    child.kill('SIGINT');
    const code = await exited;
    expect(code, stdout + stderr).toBe(3);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as { complete: boolean; exitCode: number };
    expect(report).toMatchObject({ complete: false, exitCode: 3 });
    expect(existsSync(join(dir, 'junit.xml'))).toBe(true);
    expect(stdout).toContain('Run cut short: interrupted');
  }, 60_000);
});

describe('usage errors exit 2 and run nothing', () => {
  test('--merge-reports on a missing, an empty, and a directory holding a sub-directory', async () => {
    const out = await tmp('merge-out');
    const missing = await runCli(['run', '--merge-reports', join(out, 'nope'), '--out', out]);
    expect(missing.code, missing.stderr).toBe(2);
    const empty = await tmp('merge-empty');
    const e = await runCli(['run', '--merge-reports', empty, '--out', out]);
    expect(e.code, e.stderr).toBe(2);
    expect(e.stderr).toContain('no blob report');
    const nested = await tmp('merge-nested');
    await mkdir(join(nested, 'blob'));
    const n = await runCli(['run', '--merge-reports', nested, '--out', out]);
    expect(n.stderr).not.toContain('internal error');
    expect(n.code, n.stderr).toBe(2);
    expect(n.stderr).toContain("'blob' is not a readable blob file");
    expect(existsSync(join(out, 'report.json'))).toBe(false);
  }, 60_000);

  test('an unwritable --record or --out is refused before any agent is probed', async () => {
    const dir = await tmp('unwritable');
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    const record = await runCli(['run', '--agent', 'reference-stdio', '--record', join(file, 'session.jsonl'), '--out', dir]);
    expect(record.stderr).not.toContain('internal error');
    expect(record.code, record.stderr).toBe(2);
    expect(record.stderr).toContain('--record');
    expect(record.stderr).not.toMatch(/reference-stdio\s+connect/);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
    const out = await runCli(['run', '--agent', 'reference-stdio', '--out', file]);
    expect(out.stderr).not.toContain('internal error');
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain('--out');
  }, 60_000);
});
