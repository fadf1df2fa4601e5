// Output paths that cannot be written fail at once with exit 2, before any agent is probed. `--out
// /proc/x` used to hang for good (Node's recursive mkdir spins under /proc) and ignore SIGTERM: the
// child is bounded here and killed if it does not answer.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT, tempDirs } from './cli.helpers.ts';

const tmp = tempDirs();
const BOUND_MS = 30_000;

function runBounded(args: string[]): Promise<{ code: number | null; stderr: string; ms: number; killed: boolean }> {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'adcp-conformance.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, CI: '1', NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, BOUND_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stderr, ms: Date.now() - started, killed });
    });
  });
}

test.skipIf(!existsSync('/proc/self'))(
  '--out /proc/x and --record /proc/x/…: exit 2 at once, naming the flag, nothing probed',
  async () => {
    const out = await runBounded(['run', '--agent', 'reference-stdio', '--out', '/proc/x']);
    expect(out.killed, `still running after ${BOUND_MS} ms: ${out.stderr}`).toBe(false);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain('--out /proc/x: not writable');
    expect(out.stderr).not.toMatch(/reference-stdio\s+connect/);

    const dir = await tmp('record-proc');
    const record = await runBounded(['run', '--agent', 'reference-stdio', '--out', dir, '--record', '/proc/x/session.jsonl']);
    expect(record.killed, record.stderr).toBe(false);
    expect(record.code, record.stderr).toBe(2);
    expect(record.stderr).toContain('--record /proc/x/session.jsonl: not writable');
    expect(existsSync(join(dir, 'report.json'))).toBe(false);

    // --merge-reports checks --out too (after reading the blobs: one naming a suite root is enough here).
    const blobs = await tmp('blobs');
    await writeFile(
      join(blobs, 'blob-1-1.json'),
      JSON.stringify(['4', join(tmpdir(), 'adcp-conformance-work-Aa1111', '0123456789abcdef', 'a.adcp.test.ts')]),
    );
    const merge = await runBounded(['run', '--merge-reports', blobs, '--out', '/proc/x']);
    expect(merge.killed, merge.stderr).toBe(false);
    expect(merge.code, merge.stderr).toBe(2);
    expect(merge.stderr).toContain('--out /proc/x: not writable');
  },
  3 * BOUND_MS + 10_000,
);
