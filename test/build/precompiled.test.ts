// The install-time build precompiles the AdCP response validators of the @adcp/sdk trees into
// dist/schemas-compiled/, and the compiled harness uses them — without any TypeScript source, and only as
// long as nothing says otherwise (ADCP_CONFORMANCE_NO_PRECOMPILED=1). The validators' equivalence with
// the ones compiled at run time is test/schemas/precompiled.test.ts.
import { readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { tempDirs } from '../run/cli.helpers.ts';
import { buildCopy, node, type Result } from './build.helpers.ts';

const tmp = tempDirs();

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

describe('the build precompiles the AdCP validators', () => {
  let project: string;
  let build: Result;
  beforeAll(async () => {
    project = await tmp('precompiled');
    build = await buildCopy(project);
  }, 180_000);

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
