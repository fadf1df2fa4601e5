// vitest globalSetup: a V8 startup snapshot of the reference seller, built once for the run from the current
// dist/ (test/setup/build.ts runs first), that stdio and HTTP sellers start from (sellers/launch.ts
// SELLER_SNAPSHOT_ENV; the CLI runs the tests make inherit it). The suite starts ~600 sellers, and loading
// their modules was most of each one's start (bench/README.md). Without a snapshot (it could not be built,
// dist is not current), sellers start as a user starts them.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SELLER_SNAPSHOT_ENV } from '../../sellers/launch.ts';
import { TEST_TMP_ENV } from './tmp-root.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export default async function setup(): Promise<() => void> {
  const inherited = process.env[SELLER_SNAPSHOT_ENV];
  const restore = () => {
    if (inherited === undefined) delete process.env[SELLER_SNAPSHOT_ENV];
    else process.env[SELLER_SNAPSHOT_ENV] = inherited;
  };
  // A run a test starts (add-a-check.test.ts) has its own checkout and dist: never its parent's snapshot.
  delete process.env[SELLER_SNAPSHOT_ENV];
  const entry = (await import(pathToFileURL(path.join(ROOT, 'bin', 'entry.js')).href)) as { distProblem(): string | null };
  const problem = entry.distProblem();
  if (problem !== null) {
    process.stderr.write(`test setup: no seller snapshot (${problem}): sellers start from sellers/reference-seller.js\n`);
    return restore;
  }
  const { buildSellerSnapshot } = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'seller-snapshot.mjs')).href)) as {
    buildSellerSnapshot(dist: string, blob: string): Promise<string | null>;
  };
  const dir = await mkdtemp(path.join(process.env[TEST_TMP_ENV] ?? tmpdir(), 'seller-snapshot-'));
  const blob = path.join(dir, 'seller.blob');
  const failed = await buildSellerSnapshot(path.join(ROOT, 'dist'), blob);
  if (failed) process.stderr.write(`test setup: no seller snapshot (${failed}): sellers start from sellers/reference-seller.js\n`);
  else process.env[SELLER_SNAPSHOT_ENV] = blob;
  return restore;
}
