// The CLI's bundle (scripts/build.mjs): the compiled CLI's main-thread entry and its judge worker's,
// bundled by rolldown into dist/cli-bundle/ (shared code in chunks), which bin/adcp-conformance.js runs when
// present. Each run of the CLI resolved and loaded ~600 modules across its two threads, ~0.4 CPU-s of a
// one-agent run (bench/README.md).
//
// Every compiled module keeps its own `import.meta.url`: modules read files beside themselves (the config
// schema, the precompiled validators, the check modules' folder), so each `import.meta.url` expression —
// found in the module's syntax tree, never in a string or a comment — becomes the URL of the module's own
// file in dist/, written relative to the chunk it lands in. The entry tells the judge sandbox where the
// bundled worker is (harness/run/judge/judge-sandbox.ts BUNDLED_JUDGE_WORKER), and the check modules enter
// the worker's graph through a static list written first (harness/checks/catalog-modules.ts).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The judge worker's entry, by output name (the CLI entry announces it, below). */
const WORKER_ENTRY = 'judge-worker';
/** The entries, by output name. */
const ENTRIES = { cli: 'harness/cli.js', [WORKER_ENTRY]: 'harness/run/judge/judge-worker.js' };
/** What stays outside: the vitest leg (vitest runs its own files from node_modules) and what runs load on demand. */
const EXTERNAL = [/^vitest(\/|$)/, /^vite(\/|$)/, /^@vitest\//, /^@adcp\/sdk(\/|$)/, /^undici(\/|$)/, /^yaml(\/|$)/, /^tsx(\/|$)/];
/** judge-sandbox.ts's BUNDLED_JUDGE_WORKER (test/build/compiled.test.ts fails if the worker is not the bundle's). */
const WORKER_KEY = 'adcp-conformance.bundled-judge-worker';
/** A module's own URL, as written into the bundle until its chunk is known (renderChunk). */
const MODULE_URL = '__adcpConformanceModuleUrl';

const posix = (path) => path.split(sep).join('/');

/** The `import.meta.url` expressions of a syntax tree, in source order. */
function moduleUrlSpots(ast) {
  const spots = [];
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object' || typeof node.type !== 'string') return;
    if (
      node.type === 'MemberExpression' &&
      !node.computed &&
      node.object?.type === 'MetaProperty' &&
      node.object.meta?.name === 'import' &&
      node.object.property?.name === 'meta' &&
      node.property?.name === 'url'
    )
      spots.push({ start: node.start, end: node.end });
    for (const [key, value] of Object.entries(node)) if (key !== 'type' && value && typeof value === 'object') walk(value);
  };
  walk(ast);
  return spots.sort((a, b) => a.start - b.start);
}

/**
 * `code` (the module `id`) with each `import.meta.url` expression replaced by `replacement`, or null when it has
 * none. `parseAst` is rolldown's (rolldown/parseAst).
 */
export function replaceModuleUrls(code, id, parseAst, replacement) {
  if (!code.includes('import.meta.url')) return null;
  let rewritten = '';
  let at = 0;
  for (const { start, end } of moduleUrlSpots(parseAst(code))) {
    if (code.slice(start, end) !== 'import.meta.url') throw new Error(`${id}: import.meta.url not found at ${start}–${end}`);
    rewritten += code.slice(at, start) + replacement;
    at = end;
  }
  return at === 0 ? null : rewritten + code.slice(at);
}

/**
 * The rolldown plugin that keeps each module's `import.meta.url` (modules of `root`, bundled into `out`).
 * `parseAst` is rolldown's (rolldown/parseAst).
 */
export function moduleUrlPlugin(root, out, parseAst) {
  return {
    name: 'adcp-conformance-module-url',
    transform(code, id) {
      if (!id.startsWith(root + sep)) return null;
      const rewritten = replaceModuleUrls(code, id, parseAst, `${MODULE_URL}(${JSON.stringify(posix(relative(root, id)))})`);
      return rewritten === null ? null : { code: rewritten };
    },
    renderChunk(code, chunk) {
      const from = dirname(join(out, chunk.fileName));
      const rewritten = code.replace(new RegExp(`${MODULE_URL}\\("([^"]+)"\\)`, 'g'), (_, file) => {
        return `new URL(${JSON.stringify(posix(relative(from, join(root, file))))}, import.meta.url).href`;
      });
      return { code: rewritten };
    },
  };
}

/**
 * Write `into`/harness/checks/catalog-modules.js over its compiled stub: one static import per check module,
 * so the bundle holds the checks in its own module graph.
 */
async function listCheckModules(into) {
  const checksDir = join(into, 'harness', 'checks');
  const { checkModuleFiles } = await import(pathToFileURL(join(checksDir, 'catalog-files.js')).href);
  const files = checkModuleFiles(checksDir, '.js');
  const lines = ['// Written by scripts/bundle-cli.mjs (harness/checks/catalog-modules.ts): do not edit.'];
  files.forEach(({ file }, i) => lines.push(`import * as m${i} from './${posix(relative(checksDir, file))}';`));
  lines.push('export const builtCheckModules = new Map([');
  files.forEach(({ area, slug }, i) => lines.push(`  [${JSON.stringify(`${area}/${slug}`)}, m${i}],`));
  lines.push(']);', '');
  writeFileSync(join(checksDir, 'catalog-modules.js'), lines.join('\n'));
}

/** Bundle the compiled CLI (in `into`) into `into`/cli-bundle. Should bundling fail, the CLI runs from dist/harness/ as compiled. */
export async function bundleCli(into) {
  const out = join(into, 'cli-bundle');
  try {
    await listCheckModules(into);
    const { rolldown } = await import('rolldown');
    const { parseAst } = await import('rolldown/parseAst');
    const bundle = await rolldown({
      input: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(into, file)])),
      platform: 'node',
      external: EXTERNAL,
      logLevel: 'warn',
      onLog: (level, log) => process.stderr.write(`adcp-conformance: bundling the CLI: ${log.message}\n`),
      plugins: [moduleUrlPlugin(into, out, parseAst)],
    });
    await bundle.write({
      dir: out,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      // Runs after the entry's imports (ESM hoists them), before the CLI starts a worker.
      banner: (chunk) =>
        chunk.isEntry && chunk.name === 'cli'
          ? `globalThis[Symbol.for(${JSON.stringify(WORKER_KEY)})] = new URL('./${WORKER_ENTRY}.js', import.meta.url).href;`
          : '',
    });
    await bundle.close();
    const left = readdirSync(out, { recursive: true }).filter(
      (f) => String(f).endsWith('.js') && readFileSync(join(out, String(f)), 'utf8').includes(MODULE_URL),
    );
    if (left.length > 0) throw new Error(`a module URL was left unresolved in ${left.join(', ')}`);
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    process.stderr.write(`adcp-conformance: the CLI was not bundled (${e instanceof Error ? e.message : String(e)}); it runs unbundled\n`);
  }
}
