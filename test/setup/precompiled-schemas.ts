// vitest globalSetup: the AdCP response validators the in-process tests use — the trees of the default
// source (@adcp/sdk's, and adcp-schemas/ when filled) and ../shared's 3.1.19 when present — precompiled once
// per test run, as the build does for dist/, instead of compiled again in every test file's thread (one file
// spent 11 of its 23 CPU-s compiling them). Registries opened from the sources use them through
// ADCP_CONFORMANCE_SOURCES_PRECOMPILED, and only for a tree whose fingerprint matches (precompiled.ts);
// the equivalence of precompiled and compiled validators is test/schemas/precompiled.test.ts's.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompile } from '../../harness/schemas/precompile.ts';
import { SOURCES_PRECOMPILED_ENV } from '../../harness/schemas/precompiled.ts';
import { defaultSchemaSource, dirSchemaSource, type SchemaSource, type SchemaTree } from '../../harness/schemas/source.ts';
import { precompiledTempDir } from './native-precompiled.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHARED_3_1 = path.resolve(ROOT, '..', 'shared', 'adcp', 'schemas', '3.1.19');

async function treesOf(source: SchemaSource): Promise<SchemaTree[]> {
  return Promise.all((await source.versions()).map((v) => source.openTree(v)));
}

export default async function setup(): Promise<() => Promise<void>> {
  // A test run started by a test (add-a-check.test.ts runs vitest in a copy of the project) reuses its
  // parent run's validators, passed down in the environment (~2 CPU-s each): a registry still uses one
  // only for a tree whose fingerprint matches, so a copy whose trees differ compiles them itself.
  const inherited = process.env[SOURCES_PRECOMPILED_ENV];
  if (inherited && existsSync(inherited)) return async () => {};
  const { dir: outDir, importSpecifier } = await precompiledTempDir('test');
  const trees = await treesOf(defaultSchemaSource());
  if (existsSync(path.join(SHARED_3_1, 'index.json'))) trees.push(...(await treesOf(dirSchemaSource(SHARED_3_1))));
  try {
    await precompile({ outDir, trees, importSpecifier });
    process.env[SOURCES_PRECOMPILED_ENV] = outDir;
  } catch (e) {
    // Not a test failure: the registries compile at run time, as they would without this.
    process.stderr.write(`test setup: the AdCP validators were not precompiled (${e instanceof Error ? e.message : String(e)})\n`);
  }
  return () => rm(outDir, { recursive: true, force: true });
}
