// --out / --record checked before anything runs: made one level at a time (Node's recursive mkdir spins
// forever under /proc), proven writable by creating a file, refused at once with a UsageError otherwise.
import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { UsageError } from '../../harness/run/options.ts';
import { checkOutputPaths, makeDirectory } from '../../harness/run/vitest/write-reports.ts';
import { tempDirs } from './cli.helpers.ts';

const tmp = tempDirs();

describe('checkOutputPaths', () => {
  test.for(['/proc/x', '/proc/x/y/z', '/proc/self'])('--out %s is refused at once', async (out) => {
    const started = Date.now();
    const err = await checkOutputPaths(out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(new RegExp(`^--out ${out}: not writable \\(`));
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('--record under /proc, inside a file, or naming a directory is refused', async () => {
    const dir = await tmp('record');
    await writeFile(join(dir, 'a-file'), '');
    await expect(checkOutputPaths(dir, '/proc/x/session.jsonl')).rejects.toThrow(/^--record \/proc\/x\/session\.jsonl: not writable/);
    await expect(checkOutputPaths(dir, join(dir, 'a-file', 'session.jsonl'))).rejects.toThrow(
      /^--record .*: not writable \(.*not a directory/,
    );
    await expect(checkOutputPaths(dir, dir)).rejects.toThrow(/not writable \(is a directory\)/);
  });

  test('makes missing directories, leaves no probe file, keeps an existing --record file as it was', async () => {
    const dir = await tmp('ok');
    const out = join(dir, 'a', 'b', 'c');
    const record = join(dir, 'r', 'session.jsonl');
    await checkOutputPaths(out, record);
    expect((await stat(out)).isDirectory()).toBe(true);
    expect(await readdir(out)).toEqual([]);
    expect(await readdir(join(dir, 'r'))).toEqual([]);
    await writeFile(record, 'previous');
    await checkOutputPaths(out, record);
    expect(await readdir(join(dir, 'r'))).toEqual(['session.jsonl']);
  });

  test.skipIf(process.getuid?.() === 0)('a read-only --out directory is refused (permission bits hold for non-root)', async () => {
    const dir = await tmp('ro');
    await mkdir(join(dir, 'ro'));
    await chmod(join(dir, 'ro'), 0o500);
    await expect(checkOutputPaths(join(dir, 'ro'))).rejects.toThrow(/not writable/);
  });
});

describe('makeDirectory', () => {
  test('an existing directory is fine; a file in the way is an error', async () => {
    const dir = await tmp('mk');
    await makeDirectory(dir);
    await writeFile(join(dir, 'f'), '');
    await expect(makeDirectory(join(dir, 'f'))).rejects.toThrow(/is not a directory/);
    await expect(makeDirectory(join(dir, 'f', 'g'))).rejects.toThrow(/ENOTDIR/);
    await Promise.all([makeDirectory(join(dir, 'p', 'q')), makeDirectory(join(dir, 'p', 'q', 'r'))]);
    expect((await stat(join(dir, 'p', 'q', 'r'))).isDirectory()).toBe(true);
  });
});
