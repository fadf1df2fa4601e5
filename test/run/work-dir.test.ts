// The run's work files (vitest suite files, suite data) live in a fresh private directory: a
// `*.adcp.test.ts` (or `.js`) planted in the shared suite directory earlier versions used, or anywhere in the
// temporary directory, is never run; the work directory is gone after the run, or kept (and named)
// with --keep-work. The CLI's TMPDIR is a directory of this test, so nothing is planted in the real one.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT, runCli, tempDirs, type CliResult } from './cli.helpers.ts';

const tmp = tempDirs();
const AGENT_SUITE = join(ROOT, 'suites', 'agent-suite.ts');
const WORK = /^adcp-conformance-work-/;

/** A test file that, if vitest ever runs it, leaves a marker behind. */
function plantedSuite(marker: string): string {
  return [
    "import { writeFileSync } from 'node:fs';",
    "import { test } from 'vitest';",
    `writeFileSync(${JSON.stringify(marker)}, 'planted suite ran');`,
    "test('planted', () => {});",
    '',
  ].join('\n');
}

describe('a planted suite file is never run', () => {
  let tmpDir: string;
  let markers: string;
  let run: CliResult;
  beforeAll(async () => {
    tmpDir = await tmp('tmpdir');
    markers = await tmp('markers');
    // Where earlier versions put the suites of `--agent reference-stdio`: $TMPDIR/adcp-conformance-suites/<hash>.
    const id = createHash('sha256')
      .update(JSON.stringify([AGENT_SUITE, ['reference-stdio']]))
      .digest('hex')
      .slice(0, 16);
    const shared = join(tmpDir, 'adcp-conformance-suites', id);
    await mkdir(shared, { recursive: true });
    // Planted as TypeScript and as JavaScript: the CLI runs `.ts` suites from the sources and `.js` ones
    // from the compiled build a fresh clone's `npm ci` makes.
    for (const ext of ['ts', 'js']) {
      await writeFile(join(shared, `planted.adcp.test.${ext}`), plantedSuite(join(markers, `in-shared-suites-${ext}`)));
      await writeFile(
        join(tmpDir, 'adcp-conformance-suites', `planted.adcp.test.${ext}`),
        plantedSuite(join(markers, `in-suites-parent-${ext}`)),
      );
      await writeFile(join(tmpDir, `planted.adcp.test.${ext}`), plantedSuite(join(markers, `in-tmpdir-${ext}`)));
    }
    // A directory that looks like a work directory (a guessable name) is not used either.
    await mkdir(join(tmpDir, 'adcp-conformance-work-AAAAAA'));
    for (const ext of ['ts', 'js']) {
      await writeFile(
        join(tmpDir, 'adcp-conformance-work-AAAAAA', `reference-stdio.adcp.test.${ext}`),
        plantedSuite(join(markers, `in-fake-work-${ext}`)),
      );
    }
    run = await runCli(['run', '--agent', 'reference-stdio', '--out', join(tmpDir, 'out')], { TMPDIR: tmpDir });
  }, 120_000);

  test('the run completes normally, and no planted file ran', async () => {
    expect(run.stderr).not.toContain('internal error');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(await readdir(markers)).toEqual([]);
    expect(run.stdout).not.toMatch(/planted/);
  });

  test('its work directory is gone afterwards', async () => {
    expect((await readdir(tmpDir)).filter((n) => WORK.test(n))).toEqual(['adcp-conformance-work-AAAAAA']);
  });
});

test("--keep-work keeps the private work directory (0700, only this run's files) and names it", async () => {
  const tmpDir = await tmp('keep');
  const r = await runCli(['run', '--agent', 'reference-stdio', '--keep-work', '--reporter', 'json', '--out', join(tmpDir, 'out')], {
    TMPDIR: tmpDir,
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const kept = /work files kept in (\S+) \(--keep-work\)/.exec(r.stderr)?.[1];
  expect(kept, r.stderr).toBeDefined();
  expect(kept!.startsWith(join(tmpDir, 'adcp-conformance-work-'))).toBe(true);
  expect((await stat(kept!)).mode & 0o777).toBe(0o700);
  const entries = (await readdir(kept!, { recursive: true })).map(String);
  // .ts from the sources, .js from the compiled build a fresh clone's `npm ci` makes (bin/entry.js decides).
  const suites = entries.filter((e) => /\.adcp\.test\.[jt]s$/.test(e)).map((e) => e.replace(/^[0-9a-f]{16}\//, ''));
  expect(suites.map((e) => e.replace(/\.[jt]s$/, ''))).toEqual(['reference-stdio.adcp.test']);
  expect(entries).toContain(join('data', 'reference-stdio.json'));
  expect(existsSync(join(tmpDir, 'adcp-conformance-suites'))).toBe(false);
});
