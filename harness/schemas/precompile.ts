// Build time (scripts/build.mjs, after TypeScript): the AdCP response validators of every task of the
// schema trees of the default source (the shipped adcp-schemas/ trees, then @adcp/sdk's), generated as ESM
// code with Ajv's standalone code generation, so a run loads them (precompiled.ts) instead of compiling them
// in every process.
//
// The code is what the registry would compile at run time, byte for byte in each validation function: the
// same registry (every file of the tree added to the same draft-07 Ajv, same options) compiles each
// schema, and the error cap (bounded.ts), which Ajv applies as a `code.process` hook to the code it
// evaluates but not to the source it keeps, is applied to that source the same way. What the code refers
// to at run time is loaded, never copied: ajv-formats' formats and Ajv's runtime helpers through Ajv's own
// `require(…)` (a `require` made with createRequire: CommonJS modules, loaded exactly as Ajv loads them),
// and the linear `uniqueItems` keyword, imported from the build's own unique-items.js.
//
// Layout: <outDir>/manifest.json (precompiled.ts: the key, and per tree its fingerprint and `$id` → module),
// <outDir>/<version>-<fingerprint>/<task>.mjs (ESM wherever it lies) — one module per task (its response schema and async
// statuses): loading what a run calls is ~0.05–0.15 s; one module per tree would be ~5 MB to parse.
import { writeFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { _ } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { capErrorsInCode } from './bounded.ts';
import {
  MANIFEST_FILE,
  PRECOMPILED_FORMAT,
  precompiledKey,
  treeFingerprint,
  type PrecompiledManifest,
  type PrecompiledTree,
} from './precompiled.ts';
import { AdcpRegistry } from './registry.ts';
import { defaultSchemaSource, type SchemaTree } from './source.ts';
import { linearUniqueItems } from './unique-items.ts';

type StandaloneCode = (ajv: unknown, refs: Record<string, string>) => string;
const standaloneCode: StandaloneCode =
  (standaloneModule as unknown as { default?: StandaloneCode }).default ?? (standaloneModule as unknown as StandaloneCode);

/** The module the `uniqueItems` keyword comes from, as `importSpecifier` is asked for it. */
export const UNIQUE_ITEMS_MODULE = '#unique-items';

/** The module name of the webhook payload's validator (no task is named so: task names are snake_case). */
const WEBHOOK_PAYLOAD_MODULE = 'mcp-webhook-payload';

export interface PrecompileOptions {
  outDir: string;
  /** The trees to compile; default: every tree of the default schema source (shipped adcp-schemas/, then @adcp/sdk). */
  trees?: SchemaTree[];
  /**
   * How a generated module (in `fromDir`) names `module`: a package path Ajv's code requires
   * (`ajv-formats/dist/formats`, `ajv/dist/runtime/ucs2length`, …; given to `require`) or
   * UNIQUE_ITEMS_MODULE (given to `import`). Default: the package path as Ajv wrote it (resolved from the
   * build's node_modules), and the path from `fromDir` to this module's sibling unique-items.js — both
   * valid wherever the project is installed.
   */
  importSpecifier?: (module: string, fromDir: string) => string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface PrecompileReport {
  trees: Array<{ version: string; dir: string; modules: number; ids: number; bytes: number; skipped: string[] }>;
}

function defaultImportSpecifier(module: string, fromDir: string): string {
  if (module !== UNIQUE_ITEMS_MODULE) return module;
  const here = fileURLToPath(import.meta.url);
  const target = path.join(path.dirname(here), `unique-items${path.extname(here)}`);
  const rel = path.relative(fromDir, target).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** A file name for a task's module: the tool name (`get_products`), made safe and unique. */
function moduleName(tool: string, taken: Set<string>): string {
  const base = tool.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80) || 'task';
  let name = `${base}.mjs`;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}.mjs`;
  taken.add(name);
  return name;
}

/**
 * Ajv's standalone ESM still `require`s its runtime helpers and ajv-formats (CommonJS): give the module a
 * `require` of its own, and import the uniqueItems keyword.
 */
function asEsm(code: string, fromDir: string, importSpecifier: NonNullable<PrecompileOptions['importSpecifier']>): string {
  const body = code.replace(
    /require\("([^"\\]+)"\)/g,
    (_m, module: string) => `require(${JSON.stringify(importSpecifier(module, fromDir))})`,
  );
  const lines = ['import { createRequire } from "node:module";'];
  if (/\blinearUniqueItems\b/.test(body))
    lines.push(`import { linearUniqueItems } from ${JSON.stringify(importSpecifier(UNIQUE_ITEMS_MODULE, fromDir))};`);
  lines.push('const require = createRequire(import.meta.url);');
  return `${lines.join('\n')}\n${body}\n`;
}

async function compileTree(
  tree: SchemaTree,
  outDir: string,
  importSpecifier: NonNullable<PrecompileOptions['importSpecifier']>,
): Promise<{ entry: PrecompiledTree; report: PrecompileReport['trees'][number] } | undefined> {
  const files = await tree.listFiles();
  const readText = tree.readText;
  if (!files || !readText) return undefined;
  const texts = await Promise.all(files.map(async (rel) => ({ rel, text: await readText(rel) })));
  const fingerprint = treeFingerprint(tree.version, tree.idPrefix, texts);
  const registry = await AdcpRegistry.open(tree, { standalone: true });
  const ajv = registry.standaloneAjv();
  // The keyword's function, named in code: the generated module imports it (see asEsm). Ajv calls it as
  // `keyword0.call(self, …)`, `self` being the Ajv instance, which standalone code does not have: the
  // function is an arrow function that never reads `this`, so it is called on `undefined` instead.
  const keyword = `${ajv.scope.value('keyword', { ref: linearUniqueItems, code: _`linearUniqueItems` })}`;

  const dirName = `${tree.version.replace(/[^A-Za-z0-9.-]/g, '_')}-${fingerprint.slice(0, 12)}`;
  const dir = path.join(outDir, dirName);
  await mkdir(dir, { recursive: true });
  const entry: PrecompiledTree = {
    version: tree.version,
    idPrefix: tree.idPrefix,
    fingerprint,
    files: files.length,
    dir: dirName,
    ids: {},
    addFailed: registry.addFailuresByFile(),
  };
  const report = { version: tree.version, dir: dirName, modules: 0, ids: 0, bytes: 0, skipped: [] as string[] };
  const patched = new WeakSet<object>();
  /** Functions whose code reaches for the Ajv instance (`self`), which standalone code does not have. */
  const needSelf = new Set<string>();
  const taken = new Set<string>();
  // One module per task (its response and async statuses), then one for what the judge validates
  // besides task responses: the webhook payload, which refers to every async response (~0.4 CPU-s to
  // compile at each run that received a delivery).
  const groups: Array<[string, string[]]> = registry.taskNames().map((tool) => {
    const task = registry.task(tool)!;
    return [tool, [task.response, ...Object.values(task.async)]];
  });
  groups.push([WEBHOOK_PAYLOAD_MODULE, [registry.webhookPayloadId()]]);
  for (const [tool, ids] of groups) {
    const refs: Record<string, string> = {};
    for (const id of ids) {
      if (!registry.has(id) || Object.hasOwn(entry.ids, id) || Object.values(refs).includes(id)) continue;
      const v = registry.validator(id);
      if (typeof v === 'string') report.skipped.push(`${tool}: ${v}`);
      else refs[`v${Object.keys(refs).length}`] = id;
    }
    if (Object.keys(refs).length === 0) continue;
    // Every function compiled so far, each once: its kept source gets the cap the evaluated code has, and
    // the keyword call on `undefined`.
    const patchAll = (): number => {
      let n = 0;
      for (const fn of (ajv.scope.get().validate ?? []) as Array<{ source?: { validateCode: string; validateName: unknown } }>) {
        if (!fn.source || patched.has(fn)) continue;
        const code = capErrorsInCode(fn.source.validateCode).split(`${keyword}.call(self, `).join(`${keyword}.call(undefined, `);
        fn.source.validateCode = code;
        if (/(^|[^.\w$"'])self(?![\w$"'])/.test(code)) needSelf.add(String(fn.source.validateName));
        patched.add(fn);
        n++;
      }
      return n;
    };
    let code: string | undefined;
    try {
      patchAll();
      code = standaloneCode(ajv, refs);
      if (patchAll() > 0) code = standaloneCode(ajv, refs); // compiled while generating: never ship them unpatched
    } catch (e) {
      report.skipped.push(`${tool}: no standalone code (${e instanceof Error ? e.message : String(e)})`);
      continue;
    }
    const selfish = [...needSelf].find((name) => code.includes(`function ${name}(`));
    if (selfish) {
      report.skipped.push(`${tool}: ${selfish} uses the Ajv instance, which standalone code does not have`);
      continue;
    }
    const file = moduleName(tool, taken);
    const header =
      `// Generated at build time by harness/schemas/precompile.ts: Ajv standalone validators of AdCP ${tree.version} ` +
      `${tool} (${Object.values(refs).join(', ')}). Do not edit.\n`;
    const text = header + asEsm(code, dir, importSpecifier);
    await writeFile(path.join(dir, file), text);
    // Imported once here, so a module that would not load never ships.
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>;
    for (const [name, id] of Object.entries(refs)) {
      if (typeof mod[name] === 'function') entry.ids[id] = { file, name };
      else report.skipped.push(`${tool}: ${id} is missing from ${file}`);
    }
    report.modules++;
    report.ids += Object.keys(refs).length;
    report.bytes += Buffer.byteLength(text);
  }
  return { entry, report };
}

/** Generate the modules and the manifest into `outDir` (replaced). */
export async function precompile(options: PrecompileOptions): Promise<PrecompileReport> {
  const importSpecifier = options.importSpecifier ?? defaultImportSpecifier;
  let trees = options.trees;
  if (!trees) {
    // Every tree of the default source: the shipped adcp-schemas/ trees when present, then @adcp/sdk's.
    const source = defaultSchemaSource();
    trees = await Promise.all((await source.versions()).map((v) => source.openTree(v)));
  }
  await rm(options.outDir, { recursive: true, force: true });
  await mkdir(options.outDir, { recursive: true });
  const manifest: PrecompiledManifest = { format: PRECOMPILED_FORMAT, key: precompiledKey(), trees: [] };
  const report: PrecompileReport = { trees: [] };
  for (const tree of trees) {
    const started = performance.now();
    const done = await compileTree(tree, options.outDir, importSpecifier);
    if (!done) continue;
    manifest.trees.push(done.entry);
    report.trees.push(done.report);
    const r = done.report;
    options.log?.(
      `AdCP ${r.version}: ${r.ids} validators in ${r.modules} modules (${(r.bytes / 2 ** 20).toFixed(1)} MiB) in ${Math.round(performance.now() - started)} ms` +
        (r.skipped.length ? `; left to run time: ${r.skipped.join('; ')}` : ''),
    );
  }
  await writeFile(path.join(options.outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
  return report;
}
