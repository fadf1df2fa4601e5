// vitest globalSetup: one scratch directory for the whole test run, removed when the run ends, under which
// tempDirs() (test/run/cli.helpers.ts) makes every test's directories. A file's own directories are
// removed after it; this catches the ones a shared helper module made (with `isolate: false` a helper's
// module state, and any afterAll it registered at import, belong to the first file that imported it — the
// hostile battery's runs were left in /tmp, ~10 directories a run).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_TMP_ENV = 'ADCP_CONFORMANCE_TEST_TMP';

export default async function setup(): Promise<() => Promise<void>> {
  // A test run a test starts (add-a-check.test.ts) works under its parent run's directory.
  const inherited = process.env[TEST_TMP_ENV];
  if (inherited && existsSync(inherited)) return async () => {};
  const root = await mkdtemp(join(tmpdir(), 'adcp-conformance-test-run-'));
  process.env[TEST_TMP_ENV] = root;
  return async () => {
    await rm(root, { recursive: true, force: true });
    delete process.env[TEST_TMP_ENV];
  };
}
