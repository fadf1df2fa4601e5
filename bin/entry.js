// Which build an entry point runs: the compiled one in dist/ (made by `npm ci` → prepare →
// scripts/build.mjs, and shipped in the packed package), so nothing is transpiled at run time — or, in a
// development checkout without a usable dist, the TypeScript sources through tsx. dist is unusable when it
// is missing or half-built (no stamp: a checkout before its first build, an install without
// devDependencies), or stale: a source file is newer than the build (someone is editing the sources;
// running yesterday's build would test yesterday's code). An installed package carries no TypeScript
// sources: its dist is all there is. Checking takes a few milliseconds of stat calls, once per process.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(ROOT, 'dist', '.build-stamp');
/** What the build compiles or copies: a change in any of them makes dist stale. */
const SOURCES = ['harness', 'sellers', 'suites', 'config'];
/** Whether the TypeScript sources are here (a checkout) or not (the packed package). */
const HAS_SOURCES = existsSync(join(ROOT, 'harness', 'cli.ts'));

/**
 * Also read by the build, not compiled: the build script, the shipped schema trees it precompiles, the
 * package and TypeScript configs, and the installed dependencies (npm rewrites its hidden lockfile at
 * every change to node_modules). Only `distProblem(true)` looks at them.
 */
const BUILD_INPUTS = [
  'scripts',
  'adcp-schemas',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'node_modules/.package-lock.json',
];

/**
 * Why dist cannot be used, or null when it is current. With `everything`, dist is current only if nothing
 * the build reads is newer either: what a rebuild would make again identically (scripts/build.mjs skips one).
 */
export function distProblem(everything = false) {
  if (!existsSync(STAMP)) return 'dist/ is not built (npm run build)';
  if (!HAS_SOURCES) return null;
  const built = statSync(STAMP).mtimeMs;
  const newer = (file) => (statSync(file).mtimeMs > built ? `dist/ is older than ${file.slice(ROOT.length + 1)} (npm run build)` : null);
  for (const tree of everything ? [...SOURCES, ...BUILD_INPUTS] : SOURCES) {
    const path = join(ROOT, tree);
    if (!existsSync(path)) continue;
    if (!statSync(path).isDirectory()) {
      const problem = newer(path);
      if (problem) return problem;
      continue;
    }
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const problem = newer(join(entry.parentPath, entry.name));
      if (problem) return problem;
    }
  }
  return null;
}

let decided;
/** tsx's loader, registered once per process. */
let tsx;
/** distProblem(), asked once per process (an entry point may import several modules). */
function problemOnce() {
  decided ??= { problem: distProblem() };
  return decided.problem;
}

/**
 * Import `relative` (a path from the project root without extension, e.g. `harness/cli`): dist/<it>.js
 * when dist is current (or dist/<bundled>.js, when given and the build made it), else <it>.ts through
 * tsx. ADCP_CONFORMANCE_DEBUG_BUILD=1 says which on stderr.
 */
export async function importEntry(relative, bundled) {
  const first = decided === undefined;
  const problem = problemOnce();
  if (first && process.env.ADCP_CONFORMANCE_DEBUG_BUILD === '1')
    process.stderr.write(`adcp-conformance: ${problem ? `running the TypeScript sources: ${problem}` : 'running dist/'}\n`);
  if (!problem) {
    const bundle = bundled && join(ROOT, 'dist', `${bundled}.js`);
    return import(pathToFileURL(bundle && existsSync(bundle) ? bundle : join(ROOT, 'dist', `${relative}.js`)).href);
  }
  if (!HAS_SOURCES) {
    // An installed package whose dist/ is missing: nothing to fall back to.
    process.stderr.write(`adcp-conformance: ${ROOT} has no compiled build (dist/) and no sources to run instead: reinstall the package\n`);
    process.exit(3);
  }
  tsx ??= import('tsx/esm/api').then(({ register }) => register());
  await tsx;
  return import(pathToFileURL(join(ROOT, `${relative}.ts`)).href);
}
