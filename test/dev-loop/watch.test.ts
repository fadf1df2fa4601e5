// `--watch` end to end: the CLI stays up, runs again when a file under the watched path changes (run and
// probe) or when the HTTP agent comes back after a restart (probe --url), prints one compact line per run
// and what changed. Every child is bounded by a deadline and killed at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { SELLER_ENTRY, startHttpSeller } from '../../sellers/launch.ts';
import { ROOT, tempDirs } from '../run/cli.helpers.ts';
import { watchingChild } from './watching.helpers.ts';

const tmp = tempDirs();
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
});

/** A long-running CLI of this checkout, run in the package root. */
function watching(args: string[]) {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'adcp-conformance.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: '1', NO_COLOR: '1' },
  });
  children.add(child);
  const w = watchingChild(child);
  return { ...w, stop: () => w.stop().finally(() => children.delete(child)) };
}

describe('--watch', () => {
  test('run --stdio … --watch DIR: runs, then runs again when a file under DIR changes; SIGTERM ends it', async () => {
    const dir = await tmp('watch-run');
    const out = await tmp('watch-run-out');
    await mkdir(join(dir, 'src'));
    const cli = watching([
      'run',
      '--stdio',
      `'${process.execPath}' '${SELLER_ENTRY}' --transport stdio`,
      '--watch',
      dir,
      '--out',
      out,
      '--reporter',
      'json',
    ]);
    await cli.line(/^watching /);
    const first = await cli.line(/^\[\d\d:\d\d:\d\d\] #1 \(start\): /);
    expect(first).toMatch(/#1 \(start\): conformant · \d+ pass · 0 fail · 0 warn · 0 untested · exit 0 · [\d.]+ s$/);
    await writeFile(join(dir, 'src', 'tools.ts'), 'export const changed = true;\n');
    const second = await cli.line(/#2 \(/);
    expect(second).toMatch(/#2 \(src\/tools\.ts changed\): conformant · /);
    await cli.line(/^ {2}no change since the previous run$/);
    expect(cli.output()).not.toMatch(/#3 /); // one change, one re-run (its own report writes are not changes)
    expect(await cli.stop()).toBe(0);
  }, 240_000);

  test('probe --url … --watch: probes again when the HTTP agent comes back after a restart', async () => {
    const seller = await startHttpSeller();
    const port = new URL(seller.url).port;
    let restarted: { close(): Promise<void> } | undefined;
    try {
      const cli = watching(['probe', 'get_products', '--url', seller.url, '--watch']);
      await cli.line(/#1 \(start\): conformant/);
      await seller.close();
      // The same port again, as a dev server restarting would: launch.ts's seller takes --port.
      restarted = await restartOn(port);
      const second = await cli.line(/#2 \(/);
      expect(second).toContain(`#2 (${seller.url} is back): conformant`);
      expect(await cli.stop()).toBe(0);
    } finally {
      await seller.close();
      await restarted?.close();
    }
  }, 240_000);
});

/** The reference HTTP seller on a given port (retried briefly while the old socket lets go). */
async function restartOn(port: string): Promise<{ close(): Promise<void> }> {
  await new Promise((r) => setTimeout(r, 1000)); // let the watcher see the port refuse connections first
  const child = spawn(process.execPath, [SELLER_ENTRY, '--transport', 'http', '--port', port, '--exit-on-stdin-end'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  children.add(child);
  await new Promise<void>((resolve, reject) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      text += c;
      if (text.includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`seller on port ${port} exited (${code})`)));
  });
  return {
    close: async () => {
      child.kill('SIGTERM');
      children.delete(child);
    },
  };
}
