// Shared by the install tests (packed tarball, git URL): a copy of the project laid out like a git clone, a
// scratch seller project whose lockfile is seeded from ours (so installs are offline), and npm run with an
// environment that is not this project's.
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from '../run/cli.helpers.ts';

/** What a git clone holds that packing reads (the schema trees are git-ignored: only their README and notice). */
export const CLONE = [
  'harness',
  'sellers',
  'suites',
  'config',
  'bin',
  'scripts',
  'vectors',
  'package.json',
  'README.md',
  'docs',
  'tsconfig.json',
  'tsconfig.build.json',
];

/** Copy what a clone holds into `dir`: CLONE, the schema trees' README and notice, and `extra` (e.g. the lockfile). */
export async function layClone(dir: string, extra: readonly string[] = []): Promise<void> {
  for (const entry of [...CLONE, ...extra]) await cp(join(ROOT, entry), join(dir, entry), { recursive: true });
  await mkdir(join(dir, 'adcp-schemas'));
  for (const f of ['README.md', 'LICENSE-NOTICE.md']) await cp(join(ROOT, 'adcp-schemas', f), join(dir, 'adcp-schemas', f));
}

/**
 * The environment for npm and the installed CLI: ours without npm's own variables (under `npm test` they
 * name this project — npm_config_local_prefix would make the inner npm act on it) and with this node first
 * on PATH (the bin's `#!/usr/bin/env node`).
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'INIT_CWD') env[k] = v;
  return { ...env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, CI: '1', NO_COLOR: '1', ...extra };
}

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function exec(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<Result> {
  return new Promise((done) =>
    execFile(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    ),
  );
}

/** A lockfile for the scratch project: every package this project needs at run time, as `npm ci` installed it. */
export async function seededLockfile(): Promise<string> {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const packages: Record<string, unknown> = { '': { name: 'my-seller', version: '1.0.0' } };
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && entry.dev !== true) packages[path] = entry;
  return JSON.stringify({ name: 'my-seller', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2);
}

/** A seller's project in `dir`: package.json, the seeded lockfile, and server.js (the installed package's reference seller). */
export async function sellerProject(dir: string): Promise<void> {
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'my-seller', version: '1.0.0', private: true, type: 'module' }));
  await writeFile(join(dir, 'package-lock.json'), await seededLockfile());
  // The seller under development: here, the installed package's own reference seller, over stdio.
  await writeFile(join(dir, 'server.js'), "await import('adcp-conformance/sellers/reference-seller.js');\n");
}

/**
 * `npm install --save-dev <spec>` in the seller's project, offline; should the npm cache lack something, once
 * more with --prefer-offline, saying so (`label` names the test). Throws when neither installs.
 */
export async function installDev(seller: string, spec: string, label: string): Promise<Result> {
  const flags = ['install', '--save-dev', '--no-audit', '--no-fund'];
  let installed = await exec('npm', [...flags, '--offline', spec], seller);
  if (installed.code !== 0) {
    console.warn(`${label}: npm install --offline failed; retrying with --prefer-offline:\n${installed.stderr.slice(-2000)}`);
    installed = await exec('npm', [...flags, '--prefer-offline', spec], seller);
  }
  if (installed.code !== 0) throw new Error(`npm install failed (${installed.code}):\n${installed.stdout}\n${installed.stderr}`);
  return installed;
}

/**
 * `probe get_products --stdio "node server.js"` from the seller project with its installed bin: exit 0,
 * conformant, and run from dist/ (the entry point says which build it runs).
 */
export async function probeFromSeller(seller: string): Promise<Result> {
  const bin = join(seller, 'node_modules', '.bin', 'adcp-conformance');
  const r = await exec(
    bin,
    ['probe', 'get_products', '--stdio', 'node server.js'],
    seller,
    cleanEnv({ ADCP_CONFORMANCE_DEBUG_BUILD: '1' }),
  );
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stderr).toContain('adcp-conformance: running dist/');
  expect(r.stdout).toMatch(/✓ conformant to AdCP /);
  return r;
}
