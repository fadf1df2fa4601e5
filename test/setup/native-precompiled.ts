// The precompiled validators the tests generate (test/setup/precompiled-schemas.ts, and the equivalence test)
// load natively, not through vite: each module is up to megabytes of generated code, which vite parsed to an
// AST, rewrote and gave an inline source map (~16 CPU-s of the suite's main thread, measured on 2 cores).
// vitest.config.ts externalizes the directories named with NATIVE_PRECOMPILED_PREFIX; what their code
// imports must then be plain JavaScript: the build's unique-items.js, not the TypeScript source.
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UNIQUE_ITEMS_MODULE } from '../../harness/schemas/precompile.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

/** The prefix of a temporary directory whose modules Node loads itself (vitest.config.ts). */
const NATIVE_PRECOMPILED_PREFIX = 'adcp-conformance-native-precompiled-';

/**
 * A fresh temporary directory for precompile() output, and the importSpecifier its modules need outside the
 * project (no node_modules above them): Ajv's helpers by absolute path, the uniqueItems keyword from dist/ —
 * the directory then named for native loading — or, with no build, from the TypeScript source (a name vite
 * loads, as it must). `label` tells the directories apart.
 */
export async function precompiledTempDir(label: string): Promise<{ dir: string; importSpecifier: (module: string) => string }> {
  const built = path.join(ROOT, 'dist', 'harness', 'schemas', 'unique-items.js');
  const native = existsSync(built);
  const uniqueItems = pathToFileURL(native ? built : path.join(ROOT, 'harness', 'schemas', 'unique-items.ts')).href;
  const dir = await mkdtemp(path.join(tmpdir(), `${native ? NATIVE_PRECOMPILED_PREFIX : 'adcp-conformance-precompiled-'}${label}-`));
  return { dir, importSpecifier: (module) => (module === UNIQUE_ITEMS_MODULE ? uniqueItems : require.resolve(module)) };
}
