// The run's work files: a fresh private directory per run (0700, unguessable, under os.tmpdir()),
// holding only the suite files this run wrote, removed at the end unless kept; --merge-reports gets the
// shards' blobs rewritten into a private directory of its own, naming one suite root.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { UsageError } from '../../harness/run/options.ts';
import { suitePatterns } from '../../harness/run/vitest/vitest-driver.ts';
import { createWorkspace, openMergeWork, suiteRootsIn, WORK_PREFIX } from '../../harness/run/vitest/workspace.ts';
import { tempDirs } from './cli.helpers.ts';

const tmp = tempDirs();
const leftovers: string[] = [];
afterAll(async () => {
  await Promise.all(leftovers.map((d) => rm(d, { recursive: true, force: true })));
});

describe('createWorkspace', () => {
  test('a fresh 0700 directory under os.tmpdir() per run, holding exactly the suite files it lists; dispose removes it', async () => {
    const a = await createWorkspace(['Seller A', 'seller-b']);
    const b = await createWorkspace(['Seller A', 'seller-b']);
    leftovers.push(a.dir, b.dir);
    expect(a.dir).not.toBe(b.dir);
    expect(dirname(a.dir)).toBe(tmpdir());
    expect(basename(a.dir)).toMatch(new RegExp(`^${WORK_PREFIX}[A-Za-z0-9]{6}$`));
    expect((await stat(a.dir)).mode & 0o777).toBe(0o700);
    // The same agent list gives the same relative layout (what sharding and merging rely on).
    expect(a.root.slice(a.dir.length)).toBe(b.root.slice(b.dir.length));
    expect(a.root.startsWith(a.dir + '/') && a.dataDir.startsWith(a.dir + '/')).toBe(true);
    expect(a.files.map((f) => basename(f))).toEqual(['seller-a.adcp.test.ts', 'seller-b.adcp.test.ts']);
    expect((await readdir(a.root)).sort()).toEqual(['seller-a.adcp.test.ts', 'seller-b.adcp.test.ts']);
    expect(await readFile(a.files[0]!, 'utf8')).toContain('defineAgentSuite("seller-a")');

    await a.writeData('seller-b', { facts: {} as never, cases: [], strict: false, junitAll: false });
    expect(JSON.parse(await readFile(join(a.dataDir, 'seller-b.json'), 'utf8'))).toMatchObject({ cases: [] });
    await expect(a.writeData('nobody', { facts: {} as never, cases: [], strict: false, junitAll: false })).rejects.toThrow(/no suite file/);

    await a.dispose();
    expect(existsSync(a.dir)).toBe(false);
    await b.dispose();
  });

  test('--keep-work leaves the directory and says where', async () => {
    const said: string[] = [];
    const ws = await createWorkspace(['x'], { keep: true, say: (line) => said.push(line) });
    leftovers.push(ws.dir);
    await ws.dispose();
    expect(existsSync(ws.files[0]!)).toBe(true);
    expect(said).toEqual([`work files kept in ${ws.dir} (--keep-work)`]);
  });

  test('vitest is given the written files by exact name, never a glob a planted file could match', async () => {
    const ws = await createWorkspace(['a*', 'b']);
    leftovers.push(ws.dir);
    expect(suitePatterns(ws.root, ws.files)).toEqual(['a.adcp.test.ts', 'b.adcp.test.ts']);
    expect(suitePatterns('/r', ['/r/x{1,2}.adcp.test.ts'])).toEqual(['x\\{1,2\\}.adcp.test.ts']);
    expect(() => suitePatterns(ws.root, [join(tmpdir(), 'evil.adcp.test.ts')])).toThrow(/directly in the suite root/);
    expect(() => suitePatterns(ws.root, [join(ws.root, 'sub', 'x.adcp.test.ts')])).toThrow(/directly in the suite root/);
    await ws.dispose();
  });
});

/** A blob as vitest's blob reporter writes it (flatted JSON): the suite file paths are plain strings. */
function fakeBlob(root: string, keys: string[]): string {
  return JSON.stringify([
    '4.1.12',
    ...keys.map((k) => `${root}/${k}.adcp.test.ts`),
    { filepath: `${root}/${keys[0]}.adcp.test.ts` },
    'unrelated /tmp/other',
  ]);
}

describe('openMergeWork', () => {
  test('blobs from two shards (two work directories) are rewritten into one private root; the originals are untouched', async () => {
    const blobs = await tmp('merge-blobs');
    const list = '0123456789abcdef';
    const shard1 = join(tmpdir(), `${WORK_PREFIX}Aa1111`, list);
    const shard2 = join(tmpdir(), `${WORK_PREFIX}Bb2222`, list);
    await writeFile(join(blobs, 'blob-1-2.json'), fakeBlob(shard1, ['a']));
    await writeFile(join(blobs, 'blob-2-2.json'), fakeBlob(shard2, ['b', 'c']));
    expect(suiteRootsIn(await readFile(join(blobs, 'blob-1-2.json'), 'utf8'))).toEqual([{ written: shard1, list }]);

    const work = await openMergeWork(blobs);
    leftovers.push(work.dir);
    expect(dirname(work.dir)).toBe(tmpdir());
    expect((await stat(work.dir)).mode & 0o777).toBe(0o700);
    expect(work.root).toBe(join(work.dir, list));
    expect(await readdir(work.root)).toEqual([]);
    expect((await readdir(work.blobDir)).sort()).toEqual(['blob-1-2.json', 'blob-2-2.json']);
    const one = await readFile(join(work.blobDir, 'blob-1-2.json'), 'utf8');
    const two = await readFile(join(work.blobDir, 'blob-2-2.json'), 'utf8');
    expect(one).toBe(fakeBlob(work.root, ['a']));
    expect(two).toBe(fakeBlob(work.root, ['b', 'c']));
    expect(await readFile(join(blobs, 'blob-1-2.json'), 'utf8')).toBe(fakeBlob(shard1, ['a']));
    await work.dispose();
    expect(existsSync(work.dir)).toBe(false);
  });

  test('no blob of ours, blobs from different agent lists, an unreadable entry: UsageErrors, and no directory left', async () => {
    const before = (await readdir(tmpdir())).filter((n) => n.startsWith(WORK_PREFIX)).length;
    const empty = await tmp('merge-empty');
    await expect(openMergeWork(empty)).rejects.toThrow(/no blob report/);
    await expect(openMergeWork(join(empty, 'missing'))).rejects.toBeInstanceOf(UsageError);
    const mixed = await tmp('merge-mixed');
    await writeFile(join(mixed, 'blob-1-2.json'), fakeBlob(join(tmpdir(), `${WORK_PREFIX}Aa1111`, '0123456789abcdef'), ['a']));
    await writeFile(join(mixed, 'blob-2-2.json'), fakeBlob(join(tmpdir(), `${WORK_PREFIX}Bb2222`, 'fedcba9876543210'), ['b']));
    await expect(openMergeWork(mixed)).rejects.toThrow(/different agent lists/);
    const nested = await tmp('merge-nested');
    await mkdir(join(nested, 'blob'));
    await expect(openMergeWork(nested)).rejects.toThrow(/'blob' is not a readable blob file/);
    expect((await readdir(tmpdir())).filter((n) => n.startsWith(WORK_PREFIX)).length).toBeLessThanOrEqual(before);
  });
});
