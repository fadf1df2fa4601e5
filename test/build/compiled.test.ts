// The install-time build: a copy of the project built by scripts/build.mjs (what `npm ci` runs as prepare)
// runs from dist/ — and keeps running with every TypeScript source deleted, so nothing is transpiled at run
// time: the CLI, the reference seller it spawns, vitest's agent suites, the catalog and fault loaders. A
// source newer than the build sends the entry points back to the sources (a development checkout). The build
// also precompiles the AdCP response validators of the @adcp/sdk trees into dist/schemas-compiled/, and the
// compiled harness uses them — without any TypeScript source, and only as long as nothing says otherwise
// (ADCP_CONFORMANCE_NO_PRECOMPILED=1); their equivalence with the ones compiled at run time is
// test/schemas/precompiled.test.ts.
import { readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
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

/** Run in the built copy: which validators of the 3.0.6 tree a registry takes from the build. */
const PROBE = `
import { sdkSchemaSource } from './dist/harness/schemas/source.js';
import { AdcpRegistry } from './dist/harness/schemas/registry.js';
const tree = await sdkSchemaSource().openTree('3.0.6');
const registry = await AdcpRegistry.open(tree);
await registry.preload(['get_products']);
const id = registry.task('get_products').response;
const validate = registry.validator(id);
process.stdout.write(JSON.stringify({
  precompiled: registry.isPrecompiled(id),
  state: registry.precompiledState() ?? null,
  verdict: validate({ products: [{}] }),
  errors: validate.errors?.length ?? 0,
}));
`;

/** A module hook that appends the URL of every ES module loaded to $LOADED_MODULES_LOG. */
const LOG_LOADS = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_MODULES_LOG, url + '\\\\n');
  return next(url, context);
}\`));
`;

// One built copy for every test here (a build is ~6 CPU-s); the tests that delete its sources come last.
let project: string;
let build: Result;
beforeAll(async () => {
  project = await tmp('compiled');
  build = await buildCopy(project);
}, 180_000);

describe('the compiled build', () => {
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
});

describe('the build precompiles the AdCP validators', () => {
  test('dist/schemas-compiled holds a manifest and one ESM module per task of each @adcp/sdk tree', async () => {
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(build.stdout).toMatch(/precompiled AdCP 3\.0\.6: \d+ validators in \d+ modules/);
    expect(build.stdout).toMatch(/precompiled AdCP 2\.5\.3: \d+ validators in \d+ modules/);
    expect(build.stdout).not.toContain('left to run time');
    const dir = join(project, 'dist', 'schemas-compiled');
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as {
      trees: Array<{ version: string; dir: string; ids: Record<string, { file: string }> }>;
    };
    expect(manifest.trees.map((t) => t.version).sort()).toEqual(['2.5.3', '3.0.6']);
    for (const t of manifest.trees) {
      const modules = await readdir(join(dir, t.dir));
      for (const { file } of Object.values(t.ids)) expect(modules).toContain(file);
    }
    // The generated code names the build's own unique-items.js, relative to itself.
    const t30 = manifest.trees.find((t) => t.version === '3.0.6')!;
    const code = await readFile(join(dir, t30.dir, t30.ids['/schemas/3.0.6/media-buy/get-products-response.json']!.file), 'utf8');
    expect(code).toContain('from "../../harness/schemas/unique-items.js"');
    expect(existsSync(join(project, 'dist', 'harness', 'schemas', 'unique-items.js'))).toBe(true);
  });
});

describe('without its TypeScript sources', () => {
  test('with every TypeScript source deleted, run (stdio + HTTP reference seller, all reports) and probe still work', async () => {
    for (const tree of ['harness', 'sellers', 'suites']) for (const f of await files(join(project, tree), '.ts')) await rm(f);
    const out = join(project, 'reports-test');
    // Every ES module the run loads, in its main thread and its worker threads alike (module hooks see both).
    const loadedLog = join(project, 'loaded-modules.txt');
    const hook = join(project, 'log-loads.mjs');
    await writeFile(hook, LOG_LOADS);
    const run = await node(project, ['--import', pathToFileURL(hook).href, 'bin/adcp-conformance.js', 'run', '--out', out], {
      ADCP_CONFORMANCE_DEBUG_BUILD: '1',
      LOADED_MODULES_LOG: loadedLog,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain('running dist/');
    // The CLI ran bundled (dist/cli-bundle/, scripts/build.mjs), its judge worker too: of dist/harness/ only
    // the module bin/ imports itself and the one the precompiled validators import were loaded by path.
    const loaded = (await readFile(loadedLog, 'utf8')).split('\n').filter(Boolean);
    const inDist = (dir: string) => loaded.filter((u) => u.startsWith(pathToFileURL(join(project, 'dist', dir)).href + '/'));
    expect(inDist('cli-bundle')).toEqual(
      expect.arrayContaining([expect.stringMatching(/\/cli\.js$/), expect.stringMatching(/\/judge-worker\.js$/)]),
    );
    expect(
      inDist('harness')
        .map((u) => u.slice(pathToFileURL(join(project, 'dist', 'harness')).href.length + 1))
        .sort(),
    ).toEqual(['run/invocation-dir.js', 'schemas/unique-items.js']);
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
  test('the compiled registry loads them (also with every TypeScript source gone), unless turned off', async () => {
    for (const f of (await readdir(join(project, 'harness'), { recursive: true })).filter((f) => f.endsWith('.ts'))) {
      await rm(join(project, 'harness', f));
    }
    const on = await node(project, ['--input-type=module', '-e', PROBE]);
    expect(on.code, on.stderr).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ precompiled: true, state: { problems: [] }, verdict: false });
    expect(JSON.parse(on.stdout).errors).toBeGreaterThan(0);

    const off = await node(project, ['--input-type=module', '-e', PROBE], { ADCP_CONFORMANCE_NO_PRECOMPILED: '1' });
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ precompiled: false, state: null, verdict: false });
    expect(JSON.parse(off.stdout).errors).toBe(JSON.parse(on.stdout).errors);
  }, 60_000);
});
