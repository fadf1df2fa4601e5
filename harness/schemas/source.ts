// Schema sources: where AdCP JSON schema trees come from. A source offers one or more version trees
// (a directory holding index.json, manifest.json and the schema files); a tree answers "which files do
// you have" (local only) and "give me this file".
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isObject, own } from '../json.ts';
import { createCachedFetcher, type CachedFetcher, type FetchOptions } from './fetch.ts';

/** One AdCP schema tree of a single version. */
export interface SchemaTree {
  /** Full AdCP version from the tree's index.json (`3.0.6`). */
  version: string;
  /** The `$id` path prefix of the tree's schemas (`/schemas/3.0.6/`), from index.json's own `$id`. */
  idPrefix: string;
  /** Parsed index.json. */
  index: Record<string, unknown>;
  /** Parsed manifest.json (tool → schema paths), when the tree has one. */
  manifest?: Record<string, unknown>;
  /** Where the tree lives (directory or URL), for messages. */
  location: string;
  /** Paths (relative to the tree root) of every schema file, or undefined when the source cannot list them. */
  listFiles(): Promise<string[] | undefined>;
  /** Parsed JSON of one file, by its path relative to the tree root. */
  readJson(rel: string): Promise<unknown>;
  /**
   * The text of one file (local trees only): what the registry hashes to recognise a tree whose validators
   * the build precompiled (precompiled.ts).
   */
  readText?(rel: string): Promise<string>;
}

/** A source as plain data, so another thread (the judge worker) can open the same source. */
export type SchemaSourceSpec =
  | { kind: 'sdk' }
  | { kind: 'dir'; dir: string }
  | { kind: 'url'; baseUrl: string; cacheDir: string; options: FetchOptions }
  | { kind: 'shipped'; dir: string }
  | { kind: 'composite'; parts: SchemaSourceSpec[]; required?: number };

export interface SchemaSource {
  readonly kind: 'sdk' | 'dir' | 'url' | 'shipped' | 'composite';
  readonly spec: SchemaSourceSpec;
  /** Identity of the source for the process-wide registry cache. */
  readonly key: string;
  /** Readable description for messages. */
  readonly label: string;
  /** Full versions of the trees this source offers (`['3.0.6', '2.5.3']`). */
  versions(): Promise<string[]>;
  openTree(version: string): Promise<SchemaTree>;
  /**
   * Where one version's tree comes from, for reports: `shipped adcp-schemas 3.1.19 from
   * adcontextprotocol/adcp@<commit>`, `@adcp/sdk 6.11.0`, `--schemas DIR`.
   */
  provenance(version: string): Promise<string>;
}

export class SchemaSourceError extends Error {
  override name = 'SchemaSourceError';
}

/** Files in a tree that are not schemas, or that must not be registered (duplicate `$id`s). */
const SKIP_FILES = new Set(['index.json', 'manifest.json', 'manifest.schema.json', '_provenance.json']);
const SKIP_DIRS = new Set(['async-response-refs', 'bundled']);

/** A version tree's index.json has `adcp_version` and a `schemas` map; the parent discovery document does not. */
function treeVersionOf(index: unknown): string | undefined {
  if (!isObject(index) || !isObject(index.schemas)) return undefined;
  return typeof index.adcp_version === 'string' ? index.adcp_version : undefined;
}

/** `/schemas/3.0.6/index.json` → `/schemas/3.0.6/`; falls back to `baseUrl`, then `/schemas/<version>/`. */
function idPrefixOf(index: Record<string, unknown>, version: string): string {
  if (typeof index.$id === 'string' && index.$id.endsWith('/index.json')) return index.$id.slice(0, -'index.json'.length);
  if (typeof index.baseUrl === 'string') return index.baseUrl.endsWith('/') ? index.baseUrl : `${index.baseUrl}/`;
  return `/schemas/${version}/`;
}

// ---------------------------------------------------------------------------------------------------------
// Local directories (the @adcp/sdk data, or a directory given with --schemas)

async function readJsonFile(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8'));
}

async function localTree(dir: string): Promise<SchemaTree> {
  const index = await readJsonFile(path.join(dir, 'index.json'));
  const version = treeVersionOf(index);
  if (!version || !isObject(index)) throw new SchemaSourceError(`${dir}/index.json is not an AdCP schema tree index`);
  let manifest: Record<string, unknown> | undefined;
  if (existsSync(path.join(dir, 'manifest.json'))) {
    const m = await readJsonFile(path.join(dir, 'manifest.json')).catch(() => undefined);
    if (isObject(m)) manifest = m;
  }
  return {
    version,
    idPrefix: idPrefixOf(index, version),
    index,
    manifest,
    location: dir,
    listFiles: () => listSchemaFiles(dir),
    // Read at once, not through the thread pool: a registry reads every file of the tree (~500), in the judge
    // worker, and 500 asynchronous reads cost ~180 ms of CPU against ~70 ms read one after the other.
    readJson: async (rel) => JSON.parse(readFileSync(path.join(dir, rel), 'utf8')) as unknown,
    readText: async (rel) => readFileSync(path.join(dir, rel), 'utf8'),
  };
}

async function listSchemaFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const entries = readdirSync(path.join(root, rel), { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(child);
      } else if (e.name.endsWith('.json') && !SKIP_FILES.has(e.name)) {
        out.push(child);
      }
    }
  };
  walk('');
  return out;
}

/** Version trees under `dir`: the dir itself when it is one, else its immediate subdirectories that are. */
async function findLocalTrees(dir: string): Promise<Map<string, string>> {
  const trees = new Map<string, string>();
  const versionAt = async (d: string): Promise<string | undefined> => {
    try {
      return treeVersionOf(await readJsonFile(path.join(d, 'index.json')));
    } catch {
      return undefined;
    }
  };
  const treeVersion = await versionAt(dir);
  if (treeVersion) {
    trees.set(treeVersion, dir);
    return trees;
  }
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const v = await versionAt(path.join(dir, e.name));
    if (v && !trees.has(v)) trees.set(v, path.join(dir, e.name));
  }
  return trees;
}

function localSource(kind: 'sdk' | 'dir' | 'shipped', dir: string, label: string, provenance: (version: string) => string): SchemaSource {
  let found: Promise<Map<string, string>> | undefined;
  const trees = () => (found ??= findLocalTrees(dir));
  return {
    kind,
    spec: kind === 'sdk' ? { kind } : { kind, dir },
    provenance: async (version) => provenance(version),
    key: `${kind}:${dir}`,
    label,
    async versions() {
      return [...(await trees()).keys()];
    },
    async openTree(version) {
      const d = (await trees()).get(version);
      if (!d) throw new SchemaSourceError(`${label} has no AdCP ${version} schema tree`);
      return localTree(d);
    },
  };
}

/** The schema data shipped inside the @adcp/sdk package (3.0.x and 2.5.x trees). */
export function sdkSchemaSource(): SchemaSource {
  const require = createRequire(import.meta.url);
  const pkgJson = require.resolve('@adcp/sdk/package.json');
  const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version?: unknown };
  const dir = path.join(path.dirname(pkgJson), 'dist', 'lib', 'schemas-data');
  const sdk = `@adcp/sdk ${typeof pkg.version === 'string' ? pkg.version : '?'}`;
  return localSource('sdk', dir, `${sdk} schemas`, () => sdk);
}

/** A directory holding one version tree (`…/schemas/3.1.19/`) or a directory of version trees. */
export function dirSchemaSource(dir: string): SchemaSource {
  const abs = path.resolve(dir);
  return localSource('dir', abs, `schemas in ${abs}`, () => `--schemas ${abs}`);
}

// ---------------------------------------------------------------------------------------------------------
// The trees shipped with the harness (adcp-schemas/, filled by scripts/refresh-schemas.mjs)

/** `ADCP_CONFORMANCE_SCHEMAS_DIR`: where the shipped trees are read from instead (tests); `none`: no shipped trees. */
export const SHIPPED_DIR_ENV = 'ADCP_CONFORMANCE_SCHEMAS_DIR';

/**
 * The shipped trees' directory: `adcp-schemas/` at the project root (two levels above this module in the
 * sources, three in dist/), or `ADCP_CONFORMANCE_SCHEMAS_DIR`; undefined when there is none.
 */
export function shippedSchemasDir(): string | undefined {
  const override = process.env[SHIPPED_DIR_ENV]?.trim();
  if (override) return override === 'none' ? undefined : path.resolve(override);
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const up of ['../..', '../../..']) {
    const dir = path.resolve(here, up, 'adcp-schemas');
    if (existsSync(path.join(dir, 'SOURCES.json'))) return dir;
  }
  return undefined;
}

/** What SOURCES.json says of one tree: `adcontextprotocol/adcp@4439b1871329` (bounded, never throws). */
function shippedOrigin(dir: string, version: string): string | undefined {
  try {
    const doc: unknown = JSON.parse(readFileSync(path.join(dir, 'SOURCES.json'), 'utf8'));
    const tree = own(own(doc, 'trees'), version);
    const from = isObject(tree) && typeof tree.from === 'string' ? tree.from : undefined;
    if (!from) return undefined;
    // `adcontextprotocol/adcp@<40 hex>:dist/schemas/3.1.19` → `adcontextprotocol/adcp@<12 hex>`; a URL stays a URL.
    const m = /^([\w.-]+\/[\w.-]+)(?:@([0-9a-f]{7,40}))?:dist\/schemas\//.exec(from);
    return (m ? `${m[1]}${m[2] ? `@${m[2].slice(0, 12)}` : ''}` : from).slice(0, 200);
  } catch {
    return undefined;
  }
}

/** The official trees shipped in adcp-schemas/ (see its README), with their recorded origin. */
export function shippedSchemaSource(dir: string): SchemaSource {
  const abs = path.resolve(dir);
  return localSource('shipped', abs, `shipped adcp-schemas (${abs})`, (version) => {
    const origin = shippedOrigin(abs, version);
    return `shipped adcp-schemas ${version}${origin ? ` from ${origin}` : ' (origin not recorded)'}`;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Several sources as one: the first part offering a version wins it.

/**
 * `required`: how many leading parts must answer — the trees a user asked for with `--schemas`: when they
 * cannot be read, the source fails (the schema checks are untested), never quietly judged without them.
 */
export function compositeSchemaSource(parts: readonly SchemaSource[], required = 0): SchemaSource {
  if (parts.length === 1 && required === 0) return parts[0]!;
  let owners: Promise<Map<string, SchemaSource>> | undefined;
  const discover = async (): Promise<Map<string, SchemaSource>> => {
    const map = new Map<string, SchemaSource>();
    const errors: string[] = [];
    for (const part of parts) {
      let versions: string[];
      try {
        versions = await part.versions();
      } catch (e) {
        const message = `${part.label}: ${e instanceof Error ? e.message : String(e)}`;
        if (parts.indexOf(part) < required) throw new SchemaSourceError(message);
        errors.push(message);
        continue;
      }
      for (const v of versions) if (!map.has(v)) map.set(v, part);
    }
    if (!map.size && errors.length) throw new SchemaSourceError(errors.join('; '));
    return map;
  };
  const owner = async (version: string): Promise<SchemaSource> => {
    owners ??= discover();
    owners.catch(() => (owners = undefined));
    const part = (await owners).get(version);
    if (!part) throw new SchemaSourceError(`no schema source offers AdCP ${version}`);
    return part;
  };
  return {
    kind: 'composite',
    spec: { kind: 'composite', parts: parts.map((p) => p.spec), ...(required ? { required } : {}) },
    key: `composite:[${parts.map((p) => p.key).join(',')}]`,
    label: parts.map((p) => p.label).join(', then '),
    async versions() {
      owners ??= discover();
      owners.catch(() => (owners = undefined));
      return [...(await owners).keys()];
    },
    async openTree(version) {
      return (await owner(version)).openTree(version);
    },
    async provenance(version) {
      return (await owner(version)).provenance(version);
    },
  };
}

/** The default: the shipped trees (when present), then the @adcp/sdk trees as a fallback. */
export function defaultSchemaSource(): SchemaSource {
  return compositeSchemaSource(shippedAndSdk());
}

// ---------------------------------------------------------------------------------------------------------
// A base URL (a version tree, or a discovery document whose versions live at <base>/<version>/)

export function urlSchemaSource(baseUrl: string, cacheDir: string, options: FetchOptions = {}): SchemaSource & { fetcher: CachedFetcher } {
  const base = baseUrl.replace(/\/+$/, '').replace(/\/index\.json$/, '');
  const fetcher = createCachedFetcher(cacheDir, options);
  let found: Promise<Map<string, string>> | undefined;

  const discover = async (): Promise<Map<string, string>> => {
    const doc = await fetcher.getJson(`${base}/index.json`);
    const trees = new Map<string, string>();
    const treeVersion = treeVersionOf(doc);
    if (treeVersion) {
      trees.set(treeVersion, base);
      return trees;
    }
    if (!isObject(doc)) throw new SchemaSourceError(`${base}/index.json is neither a schema tree index nor a discovery document`);
    // The newest release of each minor line; then every other stable version listed.
    const byMinor = isObject(doc.latest_by_minor) ? Object.values(doc.latest_by_minor) : [];
    for (const v of byMinor) if (typeof v === 'string' && /^\d+\.\d+\.\d+$/.test(v)) trees.set(v, `${base}/${v}`);
    if (Array.isArray(doc.versions)) {
      for (const entry of doc.versions) {
        if (!isObject(entry) || typeof entry.version !== 'string' || entry.prerelease === true) continue;
        if (entry.stability === 'withdrawn' || entry.deprecated === true) continue;
        if (/^\d+\.\d+\.\d+$/.test(entry.version) && !trees.has(entry.version)) trees.set(entry.version, `${base}/${entry.version}`);
      }
    }
    return trees;
  };

  return {
    kind: 'url',
    spec: { kind: 'url', baseUrl, cacheDir, options: { ...options } },
    key: `url:${base}`,
    label: `schemas at ${base}`,
    fetcher,
    provenance: async () => `--schemas ${base}`,
    async versions() {
      found ??= discover();
      found.catch(() => (found = undefined));
      return [...(await found).keys()];
    },
    async openTree(version) {
      found ??= discover();
      const at = (await found).get(version);
      if (!at) throw new SchemaSourceError(`schemas at ${base} list no AdCP ${version}`);
      const index = await fetcher.getJson(`${at}/index.json`);
      const v = treeVersionOf(index);
      if (!v || !isObject(index)) throw new SchemaSourceError(`${at}/index.json is not an AdCP schema tree index`);
      const manifest = await fetcher.getJson(`${at}/manifest.json`).catch(() => undefined);
      return {
        version: v,
        idPrefix: idPrefixOf(index, v),
        index,
        manifest: isObject(manifest) ? manifest : undefined,
        location: at,
        listFiles: async () => undefined,
        readJson: (rel) => fetcher.getJson(`${at}/${rel}`),
      };
    },
  };
}

/** Open the source a spec describes (in the judge worker: the same trees, the same disk cache). */
export function schemaSourceFromSpec(spec: SchemaSourceSpec): SchemaSource {
  switch (spec.kind) {
    case 'sdk':
      return sdkSchemaSource();
    case 'dir':
      return dirSchemaSource(spec.dir);
    case 'url':
      return urlSchemaSource(spec.baseUrl, spec.cacheDir, spec.options);
    case 'shipped':
      return shippedSchemaSource(spec.dir);
    case 'composite':
      return compositeSchemaSource(spec.parts.map(schemaSourceFromSpec), spec.required ?? 0);
  }
}

/**
 * `--schemas DIR|URL`: absent → the default (shipped trees, then @adcp/sdk); `sdk` → the @adcp/sdk data
 * alone; `http(s)://…` → a URL source cached under `cacheDir`, and a directory (which must exist), each
 * ADDED before the default trees (a tree of the same version there wins: a seller's fork, a beta).
 * Throws SchemaSourceError (a usage error).
 */
export function parseSchemasOption(value: string | undefined, cacheDir: string): SchemaSource {
  const v = value?.trim();
  if (!v) return defaultSchemaSource();
  if (v === 'sdk') return sdkSchemaSource();
  return compositeSchemaSource([addedSchemaSource(v, cacheDir), ...shippedAndSdk()], 1);
}

function shippedAndSdk(): SchemaSource[] {
  const shipped = shippedSchemasDir();
  return shipped ? [shippedSchemaSource(shipped), sdkSchemaSource()] : [sdkSchemaSource()];
}

function addedSchemaSource(v: string, cacheDir: string): SchemaSource {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      throw new SchemaSourceError(`--schemas ${v}: not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new SchemaSourceError(`--schemas ${v}: only http(s) URLs are supported`);
    return urlSchemaSource(v, cacheDir);
  }
  const dir = path.resolve(v);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SchemaSourceError(`--schemas ${v}: no such directory`);
  return dirSchemaSource(dir);
}
