// Relative paths on the command line mean the directory the user runs from: the working directory, or
// npm's INIT_CWD when the CLI runs as one of this package's own npm scripts (`npm start -- …` from a
// seller's folder with --prefix, where npm runs the script in the package root). `--cwd DIR` sets the
// stdio agent's working directory (relative to that same directory), and a bare `--watch` watches it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { adhocAgent } from '../../harness/run/dev/adhoc.ts';
import { devOptionsOf } from '../../harness/run/dev/dev-options.ts';
import { invocationDir } from '../../harness/run/invocation-dir.ts';
import { UsageError } from '../../harness/run/usage-error.ts';
import { watchSetup } from '../../harness/run/dev/watch.ts';
import { SELLER_ENTRY } from '../../sellers/launch.ts';
import { ROOT, runCli, tempDirs } from '../run/cli.helpers.ts';
import { watchingChild } from './watching.helpers.ts';

const tmp = tempDirs();

describe('invocationDir', () => {
  const root = '/opt/adcp-conformance';
  /** What npm sets when it runs `npm start` (`node bin/adcp-conformance.js run`) of the package at root. */
  const npmStart = {
    INIT_CWD: '/home/me/seller',
    npm_package_json: `${root}/package.json`,
    npm_lifecycle_event: 'start',
    npm_lifecycle_script: 'node bin/adcp-conformance.js run',
  };
  test('not under npm: the working directory', () => {
    expect(invocationDir('/home/me/seller', {}, root)).toBe('/home/me/seller');
    expect(invocationDir(root, {}, root)).toBe(root);
  });
  test("this package's own npm script that starts the CLI: INIT_CWD, where the user typed it", () => {
    expect(invocationDir(root, npmStart, root)).toBe('/home/me/seller');
    expect(invocationDir(root, { ...npmStart, INIT_CWD: '/home/me/seller/src/..' }, root)).toBe('/home/me/seller');
  });
  test("another package's script calling the installed bin, or one of ours that does not start the CLI: the working directory", () => {
    // A seller's own `npm test` running `adcp-conformance run …`: its paths are relative to its package root.
    const sellerScript = { ...npmStart, INIT_CWD: '/home/me/seller/src', npm_package_json: '/home/me/seller/package.json' };
    expect(invocationDir('/home/me/seller', { ...sellerScript, npm_lifecycle_script: 'adcp-conformance run' }, root)).toBe(
      '/home/me/seller',
    );
    // This package's `npm test` (vitest) spawning the CLI: the test chose the working directory.
    expect(invocationDir(root, { ...npmStart, npm_lifecycle_event: 'test', npm_lifecycle_script: 'vitest run' }, root)).toBe(root);
    expect(invocationDir('/tmp/work', npmStart, root)).toBe('/tmp/work');
    // No INIT_CWD or no package: not npm.
    expect(invocationDir(root, { ...npmStart, INIT_CWD: '' }, root)).toBe(root);
    expect(invocationDir(root, { ...npmStart, npm_package_json: undefined }, root)).toBe(root);
  });
});

describe('--cwd', () => {
  test('the stdio agent runs in DIR, relative to the current directory; a relative command means DIR too', async () => {
    const base = await tmp('cwd-unit');
    await mkdir(join(base, 'seller', 'bin'), { recursive: true });
    const a = adhocAgent({ stdio: './bin/serve --port 1 ./conf.json', cwd: 'seller' }, base);
    if (a.transport !== 'stdio') throw new Error('stdio');
    expect(a.cwd).toBe(join(base, 'seller'));
    expect(a.command).toBe(join(base, 'seller', 'bin', 'serve'));
    expect(a.args).toEqual(['--port', '1', './conf.json']);
    const cwdOf = (values: Parameters<typeof adhocAgent>[0], from: string) => {
      const agent = adhocAgent(values, from);
      return agent.transport === 'stdio' ? agent.cwd : undefined;
    };
    expect(cwdOf({ stdio: 'node s.js', cwd: join(base, 'seller') }, '/elsewhere')).toBe(join(base, 'seller'));
    // Without --cwd: the current directory, as before.
    expect(cwdOf({ stdio: 'node s.js' }, base)).toBe(base);
  });

  test('a DIR that is not a directory, and --cwd without --stdio, are usage errors', async () => {
    const base = await tmp('cwd-bad');
    await writeFile(join(base, 'file'), '');
    expect(() => adhocAgent({ stdio: 'node s.js', cwd: 'missing' }, base)).toThrow(/--cwd missing: no such directory/);
    expect(() => adhocAgent({ stdio: 'node s.js', cwd: 'file' }, base)).toThrow(UsageError);
    expect(() => adhocAgent({ url: 'http://127.0.0.1:1/mcp', cwd: 'x' }, base)).toThrow(/--cwd goes with --stdio/);
    expect(() => devOptionsOf({ cwd: 'x' })).toThrow(/--cwd goes with --stdio/);
    expect(devOptionsOf({ stdio: 'node s.js', cwd: 'x' }).adhoc).toMatchObject({ stdio: 'node s.js', cwd: 'x' });
  });

  test('a bare --watch watches the stdio agent’s working directory (DIR); --watch PATH is relative to the current one', async () => {
    const base = await tmp('cwd-watch');
    await mkdir(join(base, 'seller'));
    const agent = adhocAgent({ stdio: 'node s.js', cwd: 'seller' }, base);
    expect(watchSetup('', [agent], [], base).paths).toEqual([join(base, 'seller')]);
    expect(watchSetup('src', [agent], [], base).paths).toEqual([join(base, 'src')]);
  });
});

describe('the CLI, run as an npm script of its own package', () => {
  const children = new Set<ChildProcess>();
  afterEach(() => {
    for (const c of children) c.kill('SIGKILL');
    children.clear();
  });

  /** The user's folder: `seller/server.js` (the reference seller over stdio). */
  async function userFolder(): Promise<string> {
    const user = await tmp('cwd-user');
    await mkdir(join(user, 'seller'));
    await writeFile(join(user, 'seller', 'server.js'), `await import(${JSON.stringify(pathToFileURL(SELLER_ENTRY).href)});\n`);
    return user;
  }

  test('--stdio, --cwd and a bare --watch resolve against INIT_CWD: probes, then probes again on a change in DIR', async () => {
    const user = await userFolder();
    // What `npm --prefix <this package> start -- …` typed in `user` gives the CLI: the package root as its
    // working directory, the user's folder as INIT_CWD.
    const npmEnv = {
      INIT_CWD: user,
      npm_package_json: join(ROOT, 'package.json'),
      npm_lifecycle_event: 'start',
      npm_lifecycle_script: 'node bin/adcp-conformance.js run',
    };
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin', 'adcp-conformance.js'), 'probe', 'get_products', '--stdio', 'node server.js', '--cwd', 'seller', '--watch'],
      { cwd: ROOT, env: { ...process.env, CI: '1', NO_COLOR: '1', ...npmEnv } },
    );
    children.add(child);
    const { line, stop } = watchingChild(child);
    // Paths are shown relative to the user's folder: the CLI runs there.
    expect(await line(/^watching /)).toBe('watching seller; Ctrl-C to stop');
    expect(await line(/#1 \(start\): /)).toMatch(/: conformant · /);
    await writeFile(join(user, 'seller', 'tools.js'), 'export const changed = true;\n');
    expect(await line(/#2 \(/)).toMatch(/#2 \(tools\.js changed\): conformant · /);
    expect(await stop()).toBe(0);
  }, 180_000);

  test('without npm, the same command line run in the package root means the package root: a usage error, told at once', async () => {
    const r = await runCli(['probe', 'get_products', '--stdio', 'node server.js', '--cwd', 'seller']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--cwd seller: no such directory (${join(ROOT, 'seller')})`);
  }, 60_000);
});
