// A CI job that is cancelled or times out sends the harness SIGTERM (Ctrl-C sends SIGINT): the harness must
// end the stdio sellers it started, not leave them running after it. Each seller here records its pid and
// hangs on a call (the hang-on-call fault), so it is alive, mid-call, when the signal arrives; and, like many
// real servers, it does not exit when its stdin closes (only a signal ends it), so the harness dying alone
// would leave it running.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { SELLER_ENTRY } from '../../sellers/launch.ts';
import { ROOT, tempDirs } from '../run/cli.helpers.ts';

const tmp = tempDirs();
const children = new Set<ChildProcess>();
const sellers = new Set<number>();
afterEach(() => {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
  for (const pid of sellers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  sellers.clear();
});

/** Whether a process runs (a zombie, exited but not yet reaped, does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !(existsSync(stat) && / Z /.test(readFileSync(stat, 'utf8')));
}

/**
 * A stdio seller (the reference seller, hanging on get_signals) that writes its pid to `seller.pid` and
 * outlives the end of its stdin: its exits are no-ops, except on SIGTERM (and SIGKILL).
 */
async function hangingSeller(dir: string): Promise<string> {
  const script = join(dir, 'seller.mjs');
  await writeFile(
    script,
    [
      "import { writeFileSync } from 'node:fs';",
      `writeFileSync(${JSON.stringify(join(dir, 'seller.pid'))}, String(process.pid));`,
      'const exit = process.exit.bind(process);',
      'process.exit = () => undefined;',
      "process.on('SIGTERM', () => exit(143));",
      'setInterval(() => {}, 60_000);',
      `await import(${JSON.stringify(pathToFileURL(SELLER_ENTRY).href)});`,
      '',
    ].join('\n'),
  );
  return `'${process.execPath}' '${script}' --fault hang-on-call`;
}

/** Start the CLI, wait until it waits on the hanging call, send `signal`; its exit code and the seller's pid. */
async function signalledMidCall(dir: string, args: string[], signal: NodeJS.Signals): Promise<{ code: number | null; pid: number }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'adcp-conformance.js'), ...args], {
    cwd: dir,
    env: { ...process.env, CI: '1', NO_COLOR: '1' },
  });
  children.add(child);
  let output = '';
  const onData = (c: Buffer) => (output += c.toString());
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const deadline = Date.now() + 90_000;
  while (!/get_signals/.test(output) || !existsSync(join(dir, 'seller.pid'))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the call never started:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const pid = Number(readFileSync(join(dir, 'seller.pid'), 'utf8'));
  sellers.add(pid);
  expect(alive(pid)).toBe(true);
  await new Promise((r) => setTimeout(r, 300)); // the call is on the wire
  child.kill(signal);
  const code = await Promise.race([exited, new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), 30_000))]);
  if (code === 'stuck') throw new Error(`the CLI did not exit on ${signal} within 30 s:\n${output}`);
  children.delete(child);
  return { code, pid };
}

/** The seller is gone soon after the harness (the harness may exit while the seller's own exit is on its way). */
async function expectGone(pid: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(alive(pid), `seller ${pid} still running after the harness exited`).toBe(false);
}

describe('the harness ends its stdio sellers when it is terminated', () => {
  test('run, SIGTERM mid-call: exit 3 (cut short), the seller gone', async () => {
    const dir = await tmp('sigterm-run');
    const seller = await hangingSeller(dir);
    const { code, pid } = await signalledMidCall(dir, ['run', '--stdio', seller, '--reporter', 'json'], 'SIGTERM');
    expect(code).toBe(3);
    await expectGone(pid);
  }, 120_000);

  test('probe, SIGINT mid-call: exit 3, the seller gone', async () => {
    const dir = await tmp('sigint-probe');
    const seller = await hangingSeller(dir);
    const { code, pid } = await signalledMidCall(dir, ['probe', 'get_signals', '--stdio', seller], 'SIGINT');
    expect(code).toBe(3);
    await expectGone(pid);
  }, 120_000);

  test('run --watch, SIGTERM mid-run: the loop ends, the seller gone', async () => {
    const dir = await tmp('sigterm-watch');
    const seller = await hangingSeller(dir);
    const { code, pid } = await signalledMidCall(dir, ['run', '--stdio', seller, '--watch', '--reporter', 'json'], 'SIGTERM');
    expect(code).not.toBeNull(); // exited by itself, not killed by the signal
    await expectGone(pid);
  }, 120_000);
});
