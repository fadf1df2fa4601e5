// Installable where sellers work: the harness packed as `npm pack` packs it (from a copy of the project
// laid out like a git clone: the official AdCP schema trees are not committed), installed with
// `npm install --save-dev <tarball>` into a scratch seller project, and run from that project's folder
// through its installed bin — `probe`, and `run --stdio 'node server.js' --watch` rerunning on a change.
// One pack, one install. The install is offline: the scratch project's lockfile is seeded with this
// project's own resolved dependencies (what `npm ci` put in the npm cache), as a seller's repository would
// carry a lockfile; should the cache lack something, the install falls back to --prefer-offline and says so.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, tempDirs } from '../run/cli.helpers.ts';
import { watchingChild } from '../dev-loop/watching.helpers.ts';
import { cleanEnv, exec, installDev, layClone, probeFromSeller, sellerProject, type Result } from './install.helpers.ts';

const tmp = tempDirs();

let clone: string;
let seller: string;
let tarball: string;
let packed: Result;
let listing: string[];
let bin: string;

beforeAll(async () => {
  clone = await tmp('install-clone');
  await layClone(clone);
  await symlink(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');

  const packDir = await tmp('install-pack');
  packed = await exec('npm', ['pack', '--pack-destination', packDir], clone);
  if (packed.code !== 0) throw new Error(`npm pack failed (${packed.code}):\n${packed.stdout}\n${packed.stderr}`);
  const [name] = (await readdir(packDir)).filter((f) => f.endsWith('.tgz'));
  if (!name) throw new Error(`npm pack wrote no tarball:\n${packed.stdout}`);
  tarball = join(packDir, name);
  listing = (await exec('tar', ['-tzf', tarball], packDir)).stdout.split('\n').filter(Boolean);

  seller = await tmp('install-seller');
  await sellerProject(seller);
  await installDev(seller, tarball, 'packed.test');
  bin = join(seller, 'node_modules', '.bin', 'adcp-conformance');
}, 600_000);

describe('the packed harness', () => {
  test('npm pack builds dist/ and packs without the schema trees a clone lacks, saying so in one line', () => {
    const said = packed.stdout + packed.stderr;
    expect(said).toMatch(/adcp-conformance: compiled to dist in \d+ ms/);
    expect(said).toMatch(/packing without the official AdCP schema trees \(adcp-schemas holds none\): .* bundled in @adcp\/sdk .* only/);
    // prepare (which npm pack runs after prepack) does not build it a second time.
    expect(said).toContain('dist/ is current: nothing it is built from changed since');
  });

  test('the tarball holds the compiled build, the bin, the reference seller, config, vectors, schemas and the docs the README links: no TypeScript, no tests', () => {
    for (const f of [
      'package/package.json',
      'package/bin/adcp-conformance.js',
      'package/bin/entry.js',
      'package/dist/.build-stamp',
      'package/dist/package.json',
      'package/dist/harness/cli.js',
      'package/dist/harness/run/invocation-dir.js',
      'package/dist/suites/agent-suite.js',
      'package/dist/sellers/reference/main.js',
      'package/dist/schemas-compiled/manifest.json',
      'package/dist/config/adcp-conformance.schema.json',
      'package/sellers/reference-seller.js',
      'package/config/example.yaml',
      'package/vectors/checks/envelope.json',
      'package/adcp-schemas/README.md',
      'package/adcp-schemas/LICENSE-NOTICE.md',
      'package/README.md',
      'package/docs/run.md', // the README's links resolve in the installed package too
    ])
      expect(listing, f).toContain(f);
    expect(listing.filter((f) => /\.(ts|mts|cts)$/.test(f))).toEqual([]);
    expect(listing.filter((f) => /^package\/(test|bench|scripts|harness|suites|reports|node_modules)\//.test(f))).toEqual([]);
    // The seller's entry, and its public webhook JWKS (a config's webhookKeys may name it).
    expect(listing.filter((f) => /^package\/sellers\//.test(f)).sort()).toEqual([
      'package/sellers/reference-seller.js',
      'package/sellers/reference/webhook-jwks.json',
    ]);
  });

  test('probe get_products --stdio "node server.js", from the seller project with its installed bin: exit 0, from dist/', async () => {
    expect(existsSync(join(seller, 'node_modules', 'adcp-conformance', 'dist', '.build-stamp'))).toBe(true);
    const r = await probeFromSeller(seller);
    // Not through tsx: the package has no sources to transpile.
    expect(r.stderr).not.toContain('running the TypeScript sources');
    expect(r.stdout).toMatch(/^probe get_products → node server\.js \(stdio/m);
  }, 120_000);

  describe('run --stdio "node server.js" --watch, from the seller project', () => {
    const children = new Set<ChildProcess>();
    afterEach(() => {
      for (const c of children) c.kill('SIGKILL');
      children.clear();
    });

    test('runs, runs again when a file of the project changes, writes its reports in the project; SIGTERM ends it', async () => {
      const child = spawn(bin, ['run', '--stdio', 'node server.js', '--watch', '--reporter', 'json'], {
        cwd: seller,
        env: cleanEnv({ ADCP_CONFORMANCE_DEBUG_BUILD: '1' }),
      });
      children.add(child);
      const { line, stop, output, errors } = watchingChild(child, 120_000);
      expect(await line(/^watching /)).toBe(`watching ${seller}; Ctrl-C to stop`);
      expect(await line(/#1 \(start\): /)).toMatch(/#1 \(start\): conformant · /);
      await appendFile(join(seller, 'server.js'), '// edited\n');
      expect(await line(/#2 \(/)).toMatch(/#2 \(server\.js changed\): conformant · /);
      expect(errors()).toContain('adcp-conformance: running dist/');
      expect(existsSync(join(seller, 'reports', 'report.json'))).toBe(true);
      expect(await stop()).toBe(0);
      expect(output()).not.toMatch(/#3 /); // its own report writes are not changes
    }, 240_000);
  });

  test('`npm --prefix <clone> start -- --stdio "node server.js"` typed in the seller project runs it there (INIT_CWD)', async () => {
    const r = await exec(
      'npm',
      ['--prefix', clone, 'start', '--', '--stdio', 'node server.js', '--reporter', 'json', '--out', 'by-npm-start'],
      seller,
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(seller, 'by-npm-start', 'report.json'), 'utf8')) as { agents: Array<{ name: string }> };
    expect(report.agents.map((a) => a.name)).toEqual(['node server.js']);
  }, 120_000);
});
