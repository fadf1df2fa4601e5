// The install-time build: a copy of the project built by scripts/build.mjs (what `npm ci` runs as prepare)
// runs from dist/ — and keeps running with every TypeScript source deleted, so nothing is transpiled at run
// time: the CLI, the reference seller it spawns, vitest's agent suites, the catalog and fault loaders. A
// source newer than the build sends the entry points back to the sources (a development checkout).
import { readdir, readFile, rm, utimes } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT, tempDirs } from '../run/cli.helpers.ts';
import { buildCopy, node, type Result } from './build.helpers.ts';

const tmp = tempDirs();

async function files(dir: string, ext: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).filter((f) => f.endsWith(ext)).map((f) => join(dir, f));
}

describe('the compiled build', () => {
  let project: string;
  let build: Result;
  beforeAll(async () => {
    project = await tmp('compiled');
    build = await buildCopy(project);
  }, 180_000);

  test('scripts/build.mjs compiles harness/, sellers/ and suites/ to dist/ with their data files and a stamp', async () => {
    expect(build.code, build.stdout + build.stderr).toBe(0);
    const dist = join(project, 'dist');
    expect(existsSync(join(dist, '.build-stamp'))).toBe(true);
    expect(await files(dist, '.ts')).toEqual([]);
    for (const f of [
      'harness/cli.js',
      'harness/run/pipeline.js',
      'suites/agent-suite.js',
      'sellers/reference/main.js',
      'harness/checks/transport/call.js',
      'harness/report/report.schema.json',
      'config/adcp-conformance.schema.json',
    ]) {
      expect(existsSync(join(dist, f)), f).toBe(true);
    }
    // `.ts` specifiers became `.js` (rewriteRelativeImportExtensions), dynamic imports included.
    const cli = await readFile(join(dist, 'harness', 'cli.js'), 'utf8');
    expect(cli).toContain("import('./commands/run.js')");
    expect(cli).not.toMatch(/from '[^']+\.ts'|import\('[^']+\.ts'\)/);
    expect(JSON.parse(await readFile(join(dist, 'package.json'), 'utf8'))).toMatchObject({
      type: 'module',
      version: JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).version,
    });
  });

  test('the entry points run dist/ while it is current, and the sources once one is newer', async () => {
    const debug = { ADCP_CONFORMANCE_DEBUG_BUILD: '1' };
    const current = await node(project, ['bin/adcp-conformance.js', '--version'], debug);
    expect(current.code).toBe(0);
    expect(current.stderr).toContain('adcp-conformance: running dist/');
    const later = new Date(Date.now() + 60_000);
    await utimes(join(project, 'harness', 'cli.ts'), later, later);
    const stale = await node(project, ['bin/adcp-conformance.js', '--version'], debug);
    expect(stale.code).toBe(0);
    expect(stale.stderr).toContain('running the TypeScript sources: dist/ is older than harness/cli.ts');
    await utimes(join(project, 'harness', 'cli.ts'), new Date(0), new Date(0));
  });

  test('as prepare or prepack, a current dist is not built again; anything the build reads being newer rebuilds it', async () => {
    const lifecycle = (event: string) => node(project, ['scripts/build.mjs'], { npm_lifecycle_event: event, npm_command: 'install' });
    const stamp = join(project, 'dist', '.build-stamp');
    const builtAt = (await readFile(stamp, 'utf8')).trim();
    for (const event of ['prepare', 'prepack']) {
      const again = await lifecycle(event);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('dist/ is current: nothing it is built from changed since');
    }
    expect((await readFile(stamp, 'utf8')).trim()).toBe(builtAt);
    // Read by the build but not compiled: the entry points still run dist/, a lifecycle build does not skip.
    const entry = (await import(pathToFileURL(join(project, 'bin', 'entry.js')).href)) as {
      distProblem(everything?: boolean): string | null;
    };
    const later = new Date(Date.now() + 60_000);
    for (const input of ['package.json', join('scripts', 'build.mjs'), 'tsconfig.build.json']) {
      await utimes(join(project, input), later, later);
      expect(entry.distProblem()).toBeNull();
      expect(entry.distProblem(true)).toBe(`dist/ is older than ${input} (npm run build)`);
      await utimes(join(project, input), new Date(0), new Date(0));
    }
    expect(entry.distProblem(true)).toBeNull();
  });

  test('with every TypeScript source deleted, run (stdio + HTTP reference seller, all reports) and probe still work', async () => {
    for (const tree of ['harness', 'sellers', 'suites']) for (const f of await files(join(project, tree), '.ts')) await rm(f);
    const out = join(project, 'reports-test');
    const run = await node(project, ['bin/adcp-conformance.js', 'run', '--out', out], { ADCP_CONFORMANCE_DEBUG_BUILD: '1' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain('running dist/');
    expect(run.stdout).toMatch(/✓ 2 agents conformant to AdCP/);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { agents: Array<{ name: string; outcomes: unknown[] }> };
    expect(report.agents.map((a) => a.name)).toEqual(['reference-stdio', 'reference-http']);
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    expect(junit.match(/<testsuite /g)).toHaveLength(2);
    expect(junit).toMatch(/<testcase classname="reference-stdio" name="reference-stdio &gt; transport\.initialize › initialize"/);

    const probe = await node(project, ['bin/adcp-conformance.js', 'probe', 'get_products']);
    expect(probe.code, probe.stdout + probe.stderr).toBe(0);
    expect(probe.stdout).toMatch(/^probe get_products → reference-stdio \(stdio/m);
  }, 240_000);
});
