// `npm run catalog`: rewrites the generated part of docs/checks.md — the check catalog table between its
// `<!-- catalog:start -->` / `<!-- catalog:end -->` markers — from the check modules themselves, as
// `adcp-conformance checks --markdown` prints it. The hand-written parts outside the markers (this
// harness's own rules) are kept as they are. The table comes from the CLI (bin/), so it is what a user's
// `checks --markdown` prints, from the build or, when a source is newer, from the sources.
//   node scripts/catalog.mjs [--check] [--page FILE]
//   --check   write nothing: exit 1 (saying so) when the page is not what this script would write
//   --page    another page than docs/checks.md (tests)
import { execFile } from 'node:child_process';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const START = '<!-- catalog:start -->';
const END = '<!-- catalog:end -->';

/** The page with the text between its catalog markers replaced by `table`; everything else unchanged. */
export function spliceCatalog(page, table) {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start || page.indexOf(START, start + 1) >= 0 || page.indexOf(END, end + 1) >= 0)
    throw new Error(`the page needs exactly one '${START}' followed by one '${END}'`);
  return `${page.slice(0, start + START.length)}\n${table.trimEnd()}\n${page.slice(end)}`;
}

/** The catalog table, as `adcp-conformance checks --markdown` prints it. */
export async function catalogTable() {
  const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'bin', 'adcp-conformance.js'), 'checks', '--markdown'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

async function main() {
  const { values } = parseArgs({ options: { check: { type: 'boolean' }, page: { type: 'string' } } });
  const page = resolve(values.page ?? join(ROOT, 'docs', 'checks.md'));
  const before = await readFile(page, 'utf8');
  const after = spliceCatalog(before, await catalogTable());
  if (values.check) {
    if (before === after) return 0;
    console.error(`${page}: the catalog table is stale: run 'npm run catalog'`);
    return 1;
  }
  if (before !== after) {
    // Written whole beside the page, then renamed over it: never a half-written page.
    await writeFile(`${page}.tmp`, after);
    await rename(`${page}.tmp`, page);
  }
  console.log(`${page}: ${before === after ? 'up to date' : 'catalog table rewritten'}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    (code) => (process.exitCode = code),
    (err) => {
      console.error(`catalog: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 2;
    },
  );
}
