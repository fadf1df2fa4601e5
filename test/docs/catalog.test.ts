// `npm run catalog` (scripts/catalog.mjs) writes the generated part of docs/checks.md: the committed page
// must be exactly what it writes (so the catalog page cannot go stale), and it rewrites only the table
// between the markers, never the hand-written sections around it.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { catalogRows, renderMarkdown } from '../../harness/commands/checks.ts';
// @ts-expect-error -- a plain ESM script without type declarations
import { spliceCatalog } from '../../scripts/catalog.mjs';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const PAGE = join(ROOT, 'docs', 'checks.md');
const script = (...args: string[]) => run(process.execPath, [join(ROOT, 'scripts', 'catalog.mjs'), ...args], { cwd: ROOT });
const splice = spliceCatalog as (page: string, table: string) => string;

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'adcp-catalog-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('npm run catalog', () => {
  test('the committed docs/checks.md is what it writes (--check passes)', async () => {
    const page = await readFile(PAGE, 'utf8');
    expect(page).toBe(splice(page, renderMarkdown(catalogRows())));
    await expect(script('--check')).resolves.toMatchObject({ stderr: '' });
  }, 30_000);

  test('rewrites a stale table between the markers and keeps the hand-written sections', async () => {
    const committed = await readFile(PAGE, 'utf8');
    const stale = committed
      .replace(/^\| `transport\.call` .*\n/m, '')
      .replace("## This harness's own rules", "## This harness's own rules\n\nA hand-written line.");
    const page = join(scratch, 'checks.md');
    await writeFile(page, stale);

    await expect(script('--check', '--page', page)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('npm run catalog') });
    expect(await readFile(page, 'utf8')).toBe(stale); // --check writes nothing

    await script('--page', page);
    const written = await readFile(page, 'utf8');
    expect(written).toContain('| `transport.call` |');
    expect(written).toContain('A hand-written line.');
    expect(written).toBe(committed.replace("## This harness's own rules", "## This harness's own rules\n\nA hand-written line."));
  }, 30_000);

  test('refuses a page without exactly one pair of markers', () => {
    expect(() => splice('# no markers\n', '| t |')).toThrow(/catalog:start/);
    expect(() => splice('<!-- catalog:end -->\n<!-- catalog:start -->\n', '| t |')).toThrow(/catalog:start/);
  });
});
