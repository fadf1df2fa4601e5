#!/usr/bin/env node
// The install-time build (`prepare`, also `npm run build`, and `prepack`, so a packed package carries it): harness/, sellers/ and suites/ compiled by
// TypeScript 7 (@typescript/native, tsconfig.build.json) into dist/ with the same layout, plus what the
// compiled modules read beside themselves at run time:
//   - every data file of those trees (report.schema.json, known-defects.json, …), same relative path;
//   - config/*.json (the config's JSON Schema, read as ../../config/… from dist/harness/config/);
//   - dist/package.json: the build's package scope (ESM) and the version harness/version.ts reports;
//   - dist/schemas-compiled/: the AdCP response validators of every task of every tree of the default
//     schema source (the official trees shipped in adcp-schemas/ when present, then those bundled with
//     @adcp/sdk), as Ajv standalone code (harness/schemas/precompile.ts), so a run loads them instead of
//     compiling them (harness/schemas/precompiled.ts says when they are used). Should that step fail, the
//     build goes on without them: the validators are then compiled at run time, as from the sources.
//   - dist/sellers/reference/input-validators.js: the reference seller's input validators as Ajv standalone
//     code (sellers/reference/validate-input.ts), loaded instead of compiled at each seller start;
//   - dist/harness/config/config-validators.cjs: the config schema's validators as Ajv standalone code
//     (harness/config/validate.ts), loaded instead of compiled by every run that reads a config;
//   - dist/sellers-bundle/: the reference seller bundled by rolldown (its main and every fault module an
//     entry, shared code in chunks), which sellers/reference-seller.js runs when present: the test suite
//     starts hundreds of sellers, and ~40% of a seller's start-up was resolving and loading ~300 modules
//     (bench/README.md). Should bundling fail, the seller runs from dist/sellers/ as compiled.
//   - dist/cli-bundle/ (with dist/harness/checks/catalog-modules.js, the check modules as a static list): the CLI
//     (its main thread and its judge worker) bundled by rolldown, which bin/adcp-conformance.js runs when
//     present (scripts/bundle-cli.mjs). Should bundling fail, the CLI runs from dist/harness/ as compiled.
// It builds into a fresh directory and swaps it in, then writes dist/.build-stamp last: bin/entry.js runs
// dist only when the stamp exists and no source file is newer (a half-built or stale dist is never run).
// As an npm lifecycle script (prepare, prepack), a dist that is current is left as it is (below).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleCli } from './bundle-cli.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAMP = '.build-stamp';
const TREES = ['harness', 'sellers', 'suites'];
const CODE = new Set(['.ts', '.js', '.mjs', '.cjs', '.mts', '.cts']);

/** The TypeScript 7 compiler's entry (a node script), from the nearest node_modules up the tree, or null. */
function tscEntry() {
  for (let dir = ROOT; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '@typescript', 'native', 'bin', 'tsc');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

function copyData(tree, into) {
  const from = join(ROOT, tree);
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || CODE.has(extname(entry.name))) continue;
    const file = join(entry.parentPath, entry.name);
    const target = join(into, relative(ROOT, file));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target);
  }
}

/** Generate dist's precompiled AdCP validators with the just-compiled harness (in `into`, before it is swapped in). */
async function precompileSchemas(into) {
  const outDir = join(into, 'schemas-compiled');
  try {
    const { precompile } = await import(pathToFileURL(join(into, 'harness', 'schemas', 'precompile.js')).href);
    await precompile({ outDir, log: (line) => process.stdout.write(`adcp-conformance: precompiled ${line}\n`) });
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true });
    process.stderr.write(
      `adcp-conformance: the AdCP validators were not precompiled (${e instanceof Error ? e.message : String(e)}); runs will compile them\n`,
    );
  }
}

/** The reference seller's input validators as standalone code beside its compiled validate-input.js. */
async function precompileSellerInputs(into) {
  const file = join(into, 'sellers', 'reference', 'input-validators.js');
  try {
    const { inputValidatorsSource } = await import(pathToFileURL(join(into, 'sellers', 'reference', 'validate-input.js')).href);
    writeFileSync(file, await inputValidatorsSource());
  } catch (e) {
    rmSync(file, { force: true });
    process.stderr.write(
      `adcp-conformance: the reference seller's input validators were not precompiled (${e instanceof Error ? e.message : String(e)}); it compiles them\n`,
    );
  }
}

/** The config schema's validators as standalone code beside the compiled validate.js (harness/config/validate.ts). */
async function precompileConfig(into) {
  const dir = join(into, 'harness', 'config');
  try {
    const { configValidatorsSource, PRECOMPILED_FILE } = await import(pathToFileURL(join(dir, 'validate.js')).href);
    writeFileSync(join(dir, PRECOMPILED_FILE), await configValidatorsSource());
  } catch (e) {
    process.stderr.write(
      `adcp-conformance: the config validators were not precompiled (${e instanceof Error ? e.message : String(e)}); runs will compile them\n`,
    );
  }
}

/**
 * Bundle the compiled reference seller (in `into`) into `into`/sellers-bundle: one entry for its main and one
 * per fault module, so a fault module imported at run time (sellers/faults/_load.ts, from `../faults/`)
 * shares the seller's own module instances through the chunks. @adcp/sdk stays outside: the seller
 * loads its signing modules by path (sellers/reference/sdk-signing.ts).
 */
async function bundleSeller(into) {
  const out = join(into, 'sellers-bundle');
  try {
    const { rolldown } = await import('rolldown');
    const faults = join(into, 'sellers', 'faults');
    const input = { 'reference/main': join(into, 'sellers', 'reference', 'main.js') };
    for (const name of readdirSync(faults))
      if (name.endsWith('.js') && !name.startsWith('_')) input[`faults/${name.slice(0, -3)}`] = join(faults, name);
    const bundle = await rolldown({
      input,
      platform: 'node',
      external: [/^@adcp\/sdk(\/|$)/],
      logLevel: 'warn',
      onLog: (level, log) => process.stderr.write(`adcp-conformance: bundling the seller: ${log.message}\n`),
    });
    await bundle.write({ dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' });
    await bundle.close();
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    process.stderr.write(
      `adcp-conformance: the reference seller was not bundled (${e instanceof Error ? e.message : String(e)}); it runs unbundled\n`,
    );
  }
}

// An npm lifecycle build (prepare, prepack) when the last build is current: nothing it reads is newer than
// dist (bin/entry.js distProblem(true)), so a rebuild would make the same files. `npm install <git URL>` runs
// prepare twice in its clone (npm installs the clone, then packs it), `npm pack` runs prepack then prepare:
// each second build cost ~6 CPU-s. `npm run build` always builds.
if (['prepare', 'prepack'].includes(process.env.npm_lifecycle_event ?? '')) {
  const { distProblem } = await import('../bin/entry.js');
  if (distProblem(true) === null) {
    process.stdout.write('adcp-conformance: dist/ is current: nothing it is built from changed since\n');
    process.exit(0);
  }
}

const started = performance.now();
const compiler = tscEntry();
if (!compiler) {
  // An install without devDependencies (npm ci --omit=dev): no compiler. The CLI still works, from the
  // TypeScript sources through tsx (bin/entry.js); say so instead of failing the install.
  process.stderr.write(
    'adcp-conformance: TypeScript (@typescript/native, a dev dependency) is not installed: not compiled; the CLI will run its sources through tsx\n',
  );
  process.exit(0);
}
const staging = join(ROOT, `.dist-${process.pid}`);
rmSync(staging, { recursive: true, force: true });
try {
  const tsc = spawnSync(process.execPath, [compiler, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', staging], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (tsc.status !== 0) throw new Error(`tsc exited with ${tsc.status ?? tsc.signal}`);
  for (const tree of TREES) copyData(tree, staging);
  mkdirSync(join(staging, 'config'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'config')))
    if (extname(name) === '.json') cpSync(join(ROOT, 'config', name), join(staging, 'config', name));
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const scope = {
    name: pkg.name,
    version: pkg.version,
    private: true,
    type: 'module',
    description: 'compiled by scripts/build.mjs; do not edit',
  };
  writeFileSync(join(staging, 'package.json'), JSON.stringify(scope, null, 2) + '\n');
  await precompileSchemas(staging);
  await precompileSellerInputs(staging);
  await precompileConfig(staging);
  await bundleSeller(staging);
  await bundleCli(staging);
  rmSync(DIST, { recursive: true, force: true });
  renameSync(staging, DIST);
  writeFileSync(join(DIST, STAMP), `${new Date().toISOString()}\n`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
process.stdout.write(
  `adcp-conformance: compiled to ${relative(process.cwd(), DIST) || '.'} in ${Math.round(performance.now() - started)} ms\n`,
);
