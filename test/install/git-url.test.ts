// Installable from a git URL, as the README offers (`npm install --save-dev git+https://…`): the working
// tree committed into a scratch git repository laid out like a clone (no dist/, no node_modules, the
// lockfile committed), installed with `npm install --save-dev git+file://<repo>` into a scratch seller
// project. npm clones it, installs the clone's dependencies (devDependencies included) and runs `prepare`,
// which builds dist/; then the seller's project runs `probe` through the installed bin. Offline as
// packed.test.ts is: the clone's lockfile and the seller's seeded one resolve to what `npm ci` cached.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { tempDirs } from '../run/cli.helpers.ts';
import { cleanEnv, exec, installDev, layClone, probeFromSeller, sellerProject } from './install.helpers.ts';

const tmp = tempDirs();

let repo: string;
let commit: string;
let seller: string;

/** git with a fixed identity and no user or system config, so the scratch commit works on any machine. */
function git(args: string[], cwd: string) {
  return exec('git', ['-c', 'user.name=adcp-conformance test', '-c', 'user.email=test@example.invalid', ...args], cwd, {
    ...cleanEnv(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  });
}

beforeAll(async () => {
  repo = await tmp('install-git');
  await layClone(repo, ['package-lock.json']);
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['commit', '-q', '--no-verify', '-m', 'scratch clone of the working tree'],
  ]) {
    const r = await git(args, repo);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
  commit = (await git(['rev-parse', 'HEAD'], repo)).stdout.trim();

  seller = await tmp('install-git-seller');
  await sellerProject(seller);
  await installDev(seller, `git+file://${repo}`, 'git-url.test');
}, 600_000);

describe('npm install --save-dev git+file://<clone>', () => {
  test('records the git URL, locks the commit, and prepare built dist/ in the installed package (the clone had none)', async () => {
    expect(existsSync(join(repo, 'dist'))).toBe(false);
    const pkg = JSON.parse(await readFile(join(seller, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
    expect(pkg.devDependencies?.['adcp-conformance']).toBe(`git+file://${repo}`);
    const lock = JSON.parse(await readFile(join(seller, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string }>;
    };
    expect(lock.packages['node_modules/adcp-conformance']?.resolved).toBe(`git+file://${repo}#${commit}`);
    const installed = join(seller, 'node_modules', 'adcp-conformance');
    expect(existsSync(join(installed, 'dist', '.build-stamp'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'harness', 'cli.js'))).toBe(true);
    // What `files` ships, as from the tarball: no sources.
    expect(existsSync(join(installed, 'harness'))).toBe(false);
  });

  test('probe get_products --stdio "node server.js", from the seller project with its installed bin: exit 0, from dist/', async () => {
    await probeFromSeller(seller);
  }, 120_000);
});
