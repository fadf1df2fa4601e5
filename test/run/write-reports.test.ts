// write-reports: every report staged in full, then renamed into --out; no temp file left behind; a
// junit.xml vitest did not finish is never presented as this run's.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { writeReports } from '../../harness/run/vitest/write-reports.ts';
import { sampleReport } from '../report/fixtures.ts';

const ALL = new Set(['junit', 'json', 'summary', 'markdown'] as const);
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tmp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'adcp-write-reports-'));
  dirs.push(dir);
  return dir;
}
const XML =
  '<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="vitest tests" tests="0" failures="0" errors="0" time="0">\n</testsuites>\n';

describe('writeReports', () => {
  test('writes the three reports from the scratch junit, leaves no temp file, touches no other file', async () => {
    const scratch = await tmp();
    const out = await tmp();
    await writeFile(join(scratch, 'raw.xml'), XML);
    await writeFile(join(out, 'keep.txt'), 'x');
    const written = await writeReports(sampleReport(), [], out, ALL, join(scratch, 'raw.xml'));
    expect(written.map((f) => f.slice(out.length + 1))).toEqual(['junit.xml', 'report.json', 'summary.md']);
    expect((await readdir(out)).sort()).toEqual(['junit.xml', 'keep.txt', 'report.json', 'summary.md']);
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toContain('<testsuites name="adcp-conformance"');
  });

  test('a junit.xml vitest left half-written (or never wrote) is not reported, and a stale one goes', async () => {
    const scratch = await tmp();
    const out = await tmp();
    await writeFile(join(out, 'junit.xml'), XML); // a previous run's
    await writeFile(join(scratch, 'raw.xml'), XML.slice(0, 60));
    const written = await writeReports(sampleReport(), [], out, ALL, join(scratch, 'raw.xml'));
    expect(written.map((f) => f.slice(out.length + 1))).toEqual(['report.json', 'summary.md']);
    expect((await readdir(out)).sort()).toEqual(['report.json', 'summary.md']);
    await writeReports(sampleReport(), [], out, ALL, join(scratch, 'missing.xml'));
    expect((await readdir(out)).sort()).toEqual(['report.json', 'summary.md']);
  });

  test('a report that cannot be put in place fails the write and leaves no temp file behind', async () => {
    const scratch = await tmp();
    const out = await tmp();
    await writeFile(join(scratch, 'raw.xml'), XML);
    await mkdir(join(out, 'summary.md', 'blocker'), { recursive: true });
    await expect(writeReports(sampleReport(), [], out, ALL, join(scratch, 'raw.xml'))).rejects.toThrow();
    expect((await readdir(out)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
