// The test run's scratch directory (test/setup/tmp-root.ts): tempDirs() makes its directories there, and
// the run's end removes it with whatever a helper module left in it.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import setup, { TEST_TMP_ENV } from '../setup/tmp-root.ts';
import { tempDirs } from './cli.helpers.ts';

const tmp = tempDirs();

test('tempDirs() makes its directories under the run’s scratch directory', async () => {
  const root = process.env[TEST_TMP_ENV];
  expect(root && existsSync(root)).toBeTruthy();
  expect(dirname(await tmp('under-the-run'))).toBe(root);
});

test('the run’s end removes the scratch directory and what is left in it; a nested run keeps its parent’s', async () => {
  const parent = process.env[TEST_TMP_ENV];
  delete process.env[TEST_TMP_ENV];
  try {
    const teardown = await setup();
    const root = process.env[TEST_TMP_ENV]!;
    expect(root).not.toBe(parent);
    const left = join(root, 'adcp-cli-left-behind', 'out');
    await mkdir(left, { recursive: true });
    await writeFile(join(left, 'report.json'), '{}');
    // A run started inside this one (add-a-check.test.ts) reuses it and removes nothing.
    const nested = await setup();
    expect(process.env[TEST_TMP_ENV]).toBe(root);
    await nested();
    expect(existsSync(left)).toBe(true);
    await teardown();
    expect(existsSync(root)).toBe(false);
  } finally {
    if (parent === undefined) delete process.env[TEST_TMP_ENV];
    else process.env[TEST_TMP_ENV] = parent;
  }
});
