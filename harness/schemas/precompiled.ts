// Precompiled AdCP response validators: Ajv standalone code the install step generated (precompile.ts, run
// by scripts/build.mjs) for the schema trees bundled with @adcp/sdk, so a run loads the validators of the
// tasks it called instead of compiling them (~1.5 s of CPU for the tasks of `npm start`; loading their
// modules takes ~0.15 s).
//
// Used only when it is certainly the same validator:
//   - the code lives in the build (dist/schemas-compiled/, next to the compiled harness). Nothing is ever
//     loaded from a cache outside the project, nor written at run time; from the TypeScript sources (tsx,
//     vitest) there is none unless a caller names a directory;
//   - the manifest's key (Ajv and ajv-formats versions, the error cap, the format of this code) equals this
//     process's, and the fingerprint (sha256 of every schema file's path and text) of the tree the registry
//     opened equals the one the build compiled. Any other tree — another version, a changed file, a URL
//     tree, a `--schemas` directory with other contents — is compiled at run time as before.
// ADCP_CONFORMANCE_NO_PRECOMPILED=1 turns it off (measurements, debugging).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { ERROR_CAP } from './bounded.ts';

/** Bumped whenever the generated code or the manifest changes shape. */
export const PRECOMPILED_FORMAT = 1;
export const MANIFEST_FILE = 'manifest.json';

/** One tree the build compiled. */
export interface PrecompiledTree {
  version: string;
  idPrefix: string;
  /** sha256 of the tree's schema files (treeFingerprint). */
  fingerprint: string;
  /** How many schema files the tree lists: a cheap first test before hashing. */
  files: number;
  /** Directory of its modules, relative to the manifest. */
  dir: string;
  /** Schema `$id` → module file (in `dir`) and export name. */
  ids: Record<string, { file: string; name: string }>;
  /** `$id`s whose addSchema failed in the build (the registry reports them without adding the tree first). */
  addFailed: Record<string, string>;
}

export interface PrecompiledManifest {
  format: number;
  /** precompiledKey() of the build. */
  key: string;
  trees: PrecompiledTree[];
}

const require = createRequire(import.meta.url);

/** What the generated code depends on besides the schemas: equal keys, same code. */
export function precompiledKey(): string {
  const version = (pkg: string): string => (require(`${pkg}/package.json`) as { version: string }).version;
  return JSON.stringify({ format: PRECOMPILED_FORMAT, ajv: version('ajv'), ajvFormats: version('ajv-formats'), errorCap: ERROR_CAP });
}

/** sha256 over the tree's identity and every schema file (path and text), in the order listed. */
export function treeFingerprint(version: string, idPrefix: string, files: ReadonlyArray<{ rel: string; text: string }>): string {
  const hash = createHash('sha256').update(JSON.stringify([PRECOMPILED_FORMAT, version, idPrefix, files.length]));
  for (const { rel, text } of files) hash.update(`\n${rel}\n${Buffer.byteLength(text)}\n`).update(text);
  return hash.digest('hex');
}

/**
 * Run from the TypeScript sources, where validators precompiled for them lie (made once per test run by
 * test/setup/precompiled-schemas.ts, so each test file need not compile the same schemas again). Ignored
 * by the build, which has its own.
 */
export const SOURCES_PRECOMPILED_ENV = 'ADCP_CONFORMANCE_SOURCES_PRECOMPILED';

/**
 * Where the build put them: dist/schemas-compiled when this module runs from dist/harness/schemas/; from the
 * sources, none (or `ADCP_CONFORMANCE_SOURCES_PRECOMPILED`).
 */
export function defaultPrecompiledDir(): string | undefined {
  if (process.env.ADCP_CONFORMANCE_NO_PRECOMPILED === '1') return undefined;
  const here = fileURLToPath(import.meta.url);
  if (path.extname(here) !== '.js') return process.env[SOURCES_PRECOMPILED_ENV] || undefined;
  return path.resolve(path.dirname(here), '..', '..', 'schemas-compiled');
}

const manifests = new Map<string, Promise<PrecompiledManifest | undefined>>();

/** The manifest in `dir` when it is usable by this process (same key), else undefined. Read once per directory. */
export function precompiledManifest(dir: string): Promise<PrecompiledManifest | undefined> {
  let p = manifests.get(dir);
  if (!p) {
    p = readFile(path.join(dir, MANIFEST_FILE), 'utf8').then(
      (text) => {
        const m = JSON.parse(text) as PrecompiledManifest;
        return m.format === PRECOMPILED_FORMAT && m.key === precompiledKey() && Array.isArray(m.trees) ? m : undefined;
      },
      () => undefined,
    );
    manifests.set(dir, p);
  }
  return p;
}

/** A file name the build wrote: a plain name in its directory, never a path. */
const MODULE_NAME = /^[A-Za-z0-9_-]{1,100}\.mjs$/;
const DIR_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** The modules of one precompiled tree, imported on demand. */
export class PrecompiledValidators {
  private readonly loaded = new Map<string, ValidateFunction>();
  private readonly modules = new Map<string, Promise<void>>();
  /** Why a module could not be loaded (its ids are then compiled at run time). */
  readonly problems: string[] = [];

  constructor(
    private readonly dir: string,
    readonly tree: PrecompiledTree,
  ) {}

  has(id: string): boolean {
    return Object.hasOwn(this.tree.ids, id);
  }

  /** The loaded validator of `id`, or undefined (not precompiled, or its module not loaded). */
  get(id: string): ValidateFunction | undefined {
    return this.loaded.get(id);
  }

  /** Import the modules holding these ids (each once). Never rejects: what fails is compiled at run time instead. */
  async load(ids: Iterable<string>): Promise<void> {
    const files = new Set<string>();
    for (const id of ids) if (this.has(id) && !this.loaded.has(id)) files.add(this.tree.ids[id]!.file);
    await Promise.all([...files].map((file) => this.loadModule(file)));
  }

  private loadModule(file: string): Promise<void> {
    let p = this.modules.get(file);
    if (!p) {
      p = this.importModule(file).catch((e: unknown) => {
        this.problems.push(`${this.tree.dir}/${file}: ${e instanceof Error ? e.message : String(e)}`);
      });
      this.modules.set(file, p);
    }
    return p;
  }

  private async importModule(file: string): Promise<void> {
    if (!MODULE_NAME.test(file) || !DIR_NAME.test(this.tree.dir) || this.tree.dir.startsWith('.'))
      throw new Error('not a module name the build writes');
    const url = pathToFileURL(path.join(this.dir, this.tree.dir, file)).href;
    const mod = (await import(url)) as Record<string, unknown>;
    for (const [id, at] of Object.entries(this.tree.ids)) {
      if (at.file !== file) continue;
      const fn = mod[at.name];
      if (typeof fn === 'function') this.loaded.set(id, fn as ValidateFunction);
    }
  }
}
