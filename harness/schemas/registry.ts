// The AdCP response-schema registry of one version tree: one draft-07 Ajv instance per tree and process.
// Local trees: every schema file is added with `addSchema` up front (cheap: no compile, no meta-schema
// pass); `validator(id)` compiles only the schema asked for, once. URL trees cannot be listed, so
// `prepare(tools)` fetches the response schemas of those tools and everything they `$ref`, then adds them.
// A local tree the build precompiled (precompiled.ts: same files, same Ajv) gives the validators of the
// tasks `preload(tools)` names from the build's generated code instead; the Ajv instance is then filled
// only when something must still be compiled.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import pLimit from 'p-limit';
import { isObject, own } from '../json.ts';
import { capErrorsInCode } from './bounded.ts';
import { errorText } from './fetch.ts';
import { defaultPrecompiledDir, precompiledManifest, PrecompiledValidators, treeFingerprint } from './precompiled.ts';
import { useLinearUniqueItems } from './unique-items.ts';
import type { SchemaSource, SchemaTree } from './source.ts';

export const ASYNC_STATUSES = ['submitted', 'working', 'input-required'] as const;
export type AsyncStatus = (typeof ASYNC_STATUSES)[number];

/** The schemas of one AdCP task (tool), by `$id`. */
export interface TaskSchemas {
  tool: string;
  response: string;
  /** Status-specific schemas for submitted / working / input-required, where the tree has them. */
  async: Partial<Record<AsyncStatus, string>>;
}

/** Cap on the files one URL tree may pull in (the 3.1 tree has ~670). */
const MAX_REMOTE_DOCS = 3000;
const REMOTE_CONCURRENCY = 8;

const addFormats = addFormatsModule.default;

export interface RegistryOptions {
  /**
   * Directory of the build's precompiled validators (precompiled.ts). Default: the build's own when this
   * module runs from dist/ (none from the TypeScript sources); null: none.
   */
  precompiled?: string | null;
  /** Keep the generated source of every compiled validator, as ESM (for precompile.ts; never precompiled itself). */
  standalone?: boolean;
}

type ReadResult = { rel: string; doc: unknown; error: undefined } | { rel: string; doc: undefined; error: string };

export class AdcpRegistry {
  /** The full Ajv (allErrors, capped): made on first use; see `ajv`. */
  private fullAjv: Ajv | undefined;
  /** Documents not yet given to the full Ajv (a precompiled tree adds them only when something must be compiled). */
  private readonly pending: Array<{ doc: Record<string, unknown>; key: string | undefined }> = [];
  /** Stops at the first error; built from `docs` only when a payload trips the error cap. */
  private firstAjv: Ajv | undefined;
  private readonly docs: Array<{ doc: Record<string, unknown>; id: string | undefined }> = [];
  private readonly firstValidators = new Map<string, ValidateFunction>();
  private readonly added = new Set<string>();
  /** Ids whose fetch was attempted (URL trees): loaded or failed. */
  private readonly visited = new Set<string>();
  private readonly failed = new Map<string, string>();
  /** File (path in the tree) → why addSchema refused it: what the build records for a precompiled tree. */
  private readonly addFailures = new Map<string, string>();
  private readonly validators = new Map<string, ValidateFunction | string>();
  private readonly tasks: Map<string, TaskSchemas>;
  private queue: Promise<void> = Promise.resolve();
  private precompiled: PrecompiledValidators | undefined;

  private constructor(
    readonly tree: SchemaTree,
    /** True when every file of the tree was added (local trees). */
    readonly complete: boolean,
    private readonly standalone: boolean,
  ) {
    this.tasks = taskMap(tree);
  }

  static async open(tree: SchemaTree, options: RegistryOptions = {}): Promise<AdcpRegistry> {
    const files = await tree.listFiles();
    const standalone = options.standalone === true;
    const registry = new AdcpRegistry(tree, files !== undefined, standalone);
    if (files) {
      const dir = standalone ? undefined : options.precompiled === undefined ? defaultPrecompiledDir() : (options.precompiled ?? undefined);
      const docs = (dir && (await registry.readPrecompiled(files, dir))) || (await registry.readAll(files));
      // Sorted paths, so which of two files sharing a `$id` wins never depends on read timing.
      for (const { rel, doc, error } of docs) {
        if (error !== undefined) registry.failed.set(tree.idPrefix + rel, `${rel}: ${error}`);
        else registry.add(doc, tree.idPrefix + rel, rel);
      }
    }
    return registry;
  }

  private readAll(files: string[]): Promise<ReadResult[]> {
    return Promise.all(
      files.map((rel) =>
        this.tree.readJson(rel).then(
          (doc): ReadResult => ({ rel, doc, error: undefined }),
          (e: unknown): ReadResult => ({ rel, doc: undefined, error: errorText(e) }),
        ),
      ),
    );
  }

  /**
   * When `dir` holds validators precompiled for a tree of this version and size: read the files as text,
   * and use them only if the fingerprint of this tree is the one the build compiled. Returns the parsed
   * files, or undefined when there is nothing to compare with (then the files are read as usual).
   */
  private async readPrecompiled(files: string[], dir: string): Promise<ReadResult[] | undefined> {
    const readText = this.tree.readText;
    if (!readText) return undefined;
    const candidates = (await precompiledManifest(dir))?.trees.filter(
      (t) => t.version === this.tree.version && t.idPrefix === this.tree.idPrefix && t.files === files.length,
    );
    if (!candidates?.length) return undefined;
    const texts = await Promise.all(
      files.map((rel) =>
        readText(rel).then(
          (text) => ({ rel, text, error: undefined }),
          (e: unknown) => ({ rel, text: undefined, error: errorText(e) }),
        ),
      ),
    );
    const readable = texts.filter((t): t is { rel: string; text: string; error: undefined } => t.text !== undefined);
    if (readable.length === files.length) {
      const fingerprint = treeFingerprint(this.tree.version, this.tree.idPrefix, readable);
      const match = candidates.find((t) => t.fingerprint === fingerprint);
      if (match) this.precompiled = new PrecompiledValidators(dir, match);
    }
    return texts.map(({ rel, text, error }): ReadResult => {
      if (text === undefined) return { rel, doc: undefined, error: error ?? 'unreadable' };
      try {
        return { rel, doc: JSON.parse(text) as unknown, error: undefined };
      } catch (e) {
        return { rel, doc: undefined, error: errorText(e) };
      }
    });
  }

  get version(): string {
    return this.tree.version;
  }

  /** Tool name → its schemas (`get_products` → media-buy/get-products-response.json …). */
  task(tool: string): TaskSchemas | undefined {
    return this.tasks.get(tool);
  }

  taskNames(): string[] {
    return [...this.tasks.keys()];
  }

  /** The `$id` of core/mcp-webhook-payload.json in this tree (present or not: see `has`). */
  webhookPayloadId(): string {
    return `${this.tree.idPrefix}core/mcp-webhook-payload.json`;
  }

  has(id: string): boolean {
    return this.added.has(id);
  }

  /** Why a schema is not available (URL trees: the fetch error). */
  missingReason(id: string): string {
    return this.failed.get(id) ?? (this.complete ? `not in the ${this.tree.version} tree` : 'not loaded');
  }

  /** Load what these tools need (URL trees only; local trees have everything already). */
  prepare(tools: Iterable<string>): Promise<void> {
    if (this.complete) return Promise.resolve();
    const ids: string[] = [];
    for (const tool of tools) {
      const t = this.tasks.get(tool);
      if (t) ids.push(t.response, ...Object.values(t.async));
    }
    // One load at a time per tree: a second agent waits for the first and then finds most files added.
    const run = this.queue.then(() => this.loadClosure(ids));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Load the precompiled validators of these tools' response schemas (a tree the build precompiled; else
   * nothing to do). Never rejects: a module that does not load leaves its schemas to `validator()`'s compile.
   */
  async preload(tools: Iterable<string>, extra: Iterable<string> = []): Promise<void> {
    if (!this.precompiled) return;
    const ids: string[] = [];
    for (const tool of tools) {
      const t = this.tasks.get(tool);
      if (t) for (const id of [t.response, ...Object.values(t.async)]) if (this.added.has(id)) ids.push(id);
    }
    for (const id of extra) if (this.added.has(id)) ids.push(id);
    await this.precompiled.load(ids);
  }

  /** Whether `validator(id)` gives (or would give, once preloaded) the build's precompiled code. */
  isPrecompiled(id: string): boolean {
    const v = this.precompiled?.get(id);
    return v !== undefined && (this.validators.get(id) ?? v) === v;
  }

  /** The precompiled tree in use and what failed to load from it (tests, debugging). */
  precompiledState(): { dir: string; problems: readonly string[] } | undefined {
    return this.precompiled && { dir: this.precompiled.tree.dir, problems: this.precompiled.problems };
  }

  /** The compiled validator of `id`, compiled on first use; a string says why there is none. */
  validator(id: string): ValidateFunction | string {
    const cached = this.validators.get(id);
    if (cached) return cached;
    const precompiled = this.precompiled?.get(id);
    if (precompiled) {
      this.validators.set(id, precompiled);
      return precompiled;
    }
    let result: ValidateFunction | string;
    if (!this.added.has(id)) {
      result = `schema ${id} is not available (${this.missingReason(id)})`;
      if (!this.complete) return result; // a later prepare() may still load it
    } else {
      try {
        result = this.ajv.getSchema(id) ?? `schema ${id} did not compile`;
      } catch (e) {
        result = `schema ${id} does not compile: ${errorText(e)}`;
      }
    }
    this.validators.set(id, result);
    return result;
  }

  /**
   * The validator of `id` that stops at its first error (allErrors off, no cap): what decides and lists
   * the errors once the capped full validator gave up. Built on first use from the same documents.
   */
  firstErrorValidator(id: string): ValidateFunction {
    const cached = this.firstValidators.get(id);
    if (cached) return cached;
    if (!this.firstAjv) {
      const ajv = adcpAjv(false);
      for (const { doc, id: fallback } of this.docs) {
        try {
          ajv.addSchema(doc, fallback, undefined, false);
        } catch {
          /* the full instance recorded why */
        }
      }
      this.firstAjv = ajv;
    }
    const validate = this.firstAjv.getSchema(id);
    if (!validate) throw new Error(`schema ${id} did not compile`);
    this.firstValidators.set(id, validate);
    return validate;
  }

  /** The Ajv the validators are compiled in; a precompiled tree's documents are added on first use. */
  private get ajv(): Ajv {
    if (!this.fullAjv) {
      this.fullAjv = adcpAjv(true, this.standalone);
      for (const { doc, key } of this.pending.splice(0)) {
        try {
          this.fullAjv.addSchema(doc, key, undefined, false);
        } catch {
          /* the build recorded it (addFailures), and open() reported it */
        }
      }
    }
    return this.fullAjv;
  }

  /** The Ajv holding the compiled validators with their source (a registry opened `standalone`, for precompile.ts). */
  standaloneAjv(): Ajv {
    if (!this.standalone) throw new Error('the registry was not opened for standalone code');
    return this.ajv;
  }

  /** File → why addSchema refused it (what the build records beside a precompiled tree). */
  addFailuresByFile(): Record<string, string> {
    return Object.fromEntries(this.addFailures);
  }

  private add(doc: unknown, fallbackId: string, rel: string): void {
    if (!isObject(doc)) return;
    const declared = own(doc, '$id');
    const id = typeof declared === 'string' ? declared : fallbackId;
    if (this.added.has(id)) return; // a duplicate $id would make addSchema throw; the first file wins
    const key = typeof declared === 'string' ? undefined : id;
    if (this.precompiled) {
      // The same files, the same Ajv: the build saw which addSchema calls fail; adding waits until needed.
      this.pending.push({ doc, key });
      const failure = own(this.precompiled.tree.addFailed, rel);
      if (typeof failure === 'string') {
        this.failed.set(id, failure);
        return;
      }
      this.added.add(id);
      this.docs.push({ doc, id: key });
      return;
    }
    try {
      this.ajv.addSchema(doc, key, undefined, false);
      this.added.add(id);
      this.docs.push({ doc, id: key });
      if (this.firstAjv) this.firstAjv.addSchema(doc, key, undefined, false);
    } catch (e) {
      const failure = `addSchema failed: ${errorText(e)}`;
      this.failed.set(id, failure);
      this.addFailures.set(rel, failure);
    }
  }

  private async loadClosure(roots: string[]): Promise<void> {
    const limit = pLimit(REMOTE_CONCURRENCY);
    const pending = new Set<Promise<void>>();
    const visit = (id: string): void => {
      if (this.visited.has(id) || this.added.has(id)) return;
      const rel = id.startsWith(this.tree.idPrefix) ? id.slice(this.tree.idPrefix.length) : undefined;
      if (!rel || this.visited.size >= MAX_REMOTE_DOCS) return;
      this.visited.add(id);
      const job = limit(async () => {
        try {
          const doc = await this.tree.readJson(rel);
          this.add(doc, id, rel);
          for (const ref of refsOf(doc, id)) visit(ref);
        } catch (e) {
          this.failed.set(id, errorText(e));
        }
      });
      pending.add(job);
      void job.finally(() => pending.delete(job));
    };
    for (const id of roots) visit(id);
    while (pending.size > 0) await Promise.all([...pending]);
    // Validators that failed for want of a file may succeed now.
    for (const [id, v] of this.validators) if (typeof v === 'string') this.validators.delete(id);
  }
}

/**
 * The Ajv of one tree: draft-07 (AdCP schemas are draft-07); never removeAdditional / useDefaults /
 * coerceTypes (the harness judges what the seller sent and must not change it). `full` collects errors up
 * to the cap. Patterns run natively: the trees' patterns are ours and linear on the native engine
 * (bench/README.md), and a seller's outputSchema is where the linear engine is needed. `standalone` keeps
 * each validator's source for Ajv's standalone code (the generated code is the same either way).
 */
function adcpAjv(full: boolean, standalone = false): Ajv {
  const code = { ...(full ? { process: capErrorsInCode } : {}), ...(standalone ? { source: true, esm: true } : {}) };
  const ajv = new Ajv({ strict: false, allErrors: full, logger: false, code });
  addFormats(ajv);
  useLinearUniqueItems(ajv);
  return ajv;
}

// ---------------------------------------------------------------------------------------------------------

/** Keys whose values are data, not subschemas: a `$ref` inside them is not a reference. */
const DATA_KEYS = new Set(['enum', 'const', 'default', 'examples', 'example']);
const REF_BASE = 'http://adcp-schema.invalid';

/** The tree-local schema ids a document references (fragments dropped, relative refs resolved). */
export function refsOf(doc: unknown, docId: string): string[] {
  const declared = own(doc, '$id');
  const base = REF_BASE + (typeof declared === 'string' && declared.startsWith('/') ? declared : docId);
  const out = new Set<string>();
  const walk = (node: unknown, depth: number): void => {
    if (depth > 200 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1);
      return;
    }
    for (const key of Object.keys(node)) {
      const value = own(node, key);
      if (key === '$ref' && typeof value === 'string') {
        if (value.startsWith('#')) continue;
        try {
          const u = new URL(value, base);
          if (u.origin === REF_BASE) out.add(decodeURI(u.pathname));
        } catch {
          /* not a URL reference we can follow */
        }
      } else if (!DATA_KEYS.has(key)) {
        walk(value, depth + 1);
      }
    }
  };
  walk(doc, 0);
  return [...out];
}

/**
 * Tool → schemas. The tree's manifest.json (`tools.<name>.response_schema`, `async_response_schemas`)
 * when present; then the index.json task lists (`schemas.<group>.tasks.<kebab-name>.response.$ref`), first
 * group wins (media-buy comes before creative, so `list_creative_formats` is the sales agent's). Async
 * schemas not named by a manifest follow the tree's naming: `<task>-async-response-<status>.json`.
 */
export function taskMap(tree: SchemaTree): Map<string, TaskSchemas> {
  const map = new Map<string, TaskSchemas>();
  const tools = own(tree.manifest, 'tools');
  if (isObject(tools)) {
    for (const name of Object.keys(tools)) {
      const entry = own(tools, name);
      const response = own(entry, 'response_schema');
      if (typeof response !== 'string') continue;
      const task: TaskSchemas = { tool: name, response: tree.idPrefix + response, async: {} };
      const asyncList = own(entry, 'async_response_schemas');
      if (Array.isArray(asyncList)) {
        for (const rel of asyncList) {
          const status = typeof rel === 'string' ? asyncStatusOf(rel) : undefined;
          if (status && typeof rel === 'string') task.async[status] = tree.idPrefix + rel;
        }
      }
      map.set(name, task);
    }
  }
  const groups = own(tree.index, 'schemas');
  if (isObject(groups)) {
    for (const group of Object.keys(groups)) {
      const tasks = own(own(groups, group), 'tasks');
      if (!isObject(tasks)) continue;
      for (const kebab of Object.keys(tasks)) {
        const ref = own(own(own(tasks, kebab), 'response'), '$ref');
        const tool = kebab.replace(/-/g, '_');
        if (typeof ref !== 'string' || map.has(tool)) continue;
        const task: TaskSchemas = { tool, response: ref, async: {} };
        if (ref.endsWith('-response.json')) {
          const stem = ref.slice(0, -'-response.json'.length);
          for (const status of ASYNC_STATUSES) task.async[status] = `${stem}-async-response-${status}.json`;
        }
        map.set(tool, task);
      }
    }
  }
  return map;
}

function asyncStatusOf(rel: string): AsyncStatus | undefined {
  const m = /-async-response-(submitted|working|input-required)\.json$/.exec(rel);
  return m ? (m[1] as AsyncStatus) : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// One registry per (source, version) per process.

const registries = new Map<string, Promise<AdcpRegistry>>();

export function registryFor(source: SchemaSource, version: string): Promise<AdcpRegistry> {
  const key = `${source.key}@${version}`;
  let p = registries.get(key);
  if (!p) {
    p = source.openTree(version).then((tree) => AdcpRegistry.open(tree));
    registries.set(key, p);
    p.catch(() => registries.delete(key)); // a failed load may be retried by a later agent
  }
  return p;
}
