// Tool outputSchemas, compiled by their own dialect (`$schema`; absent → 2020-12, MCP 2025-11-25's
// default; draft-07 allowed) in Ajv instances owned by one agent. A schema that does not compile is a
// seller finding returned as `{ok:false, message}`, never an exception: one bad tool must not stop the
// others (the SDK client's listTools() fails for every tool on one bad outputSchema).
// Seller schemas are code we run, so: `$async` and references outside the document are refused before
// Ajv sees them; only the schemas of tools that were called are compiled (an uncalled tool's schema is
// checked against its meta-schema and for regex / `#/…` reference problems, without generating code);
// compiled schemas are cached by content (a hash of their canonical JSON), so 2000 tools sharing one
// schema compile once — in a bounded cache every compiler of the thread shares (OutputSchemaCache), so a
// fleet advertising the same schemas compiles them once per judge worker, not once per agent; patterns
// run on a linear-time engine where RE2 can express them; and errors are collected up to a cap (bounded.ts).
import { createHash } from 'node:crypto';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { SchemaError } from './service.ts';
import { isObject, own } from '../json.ts';
import { capErrorsInCode, ERROR_CAP, isCapStop, validateBounded } from './bounded.ts';
import { boundSchemaErrors } from './errors.ts';
import { errorText } from './fetch.ts';
import { linearRegExp } from './linear-regexp.ts';
import { describePatterns, nativePatternsIn, refusalIn, uncompiledProblem } from './seller-schema.ts';
import { canonicalKey, useLinearUniqueItems } from './unique-items.ts';
import { BUDGET_KEYWORD, type StepBlocker, type StepListener } from './schema-step.ts';

const addFormats = addFormatsModule.default;

export type Dialect = '2020-12' | 'draft-07';

const DIALECTS: ReadonlyArray<[RegExp, Dialect]> = [
  [/^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, '2020-12'],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 'draft-07'],
];

/** Bounds on a seller's schema before Ajv turns it into code. */
const MAX_SCHEMA_NODES = 20_000;
const MAX_SCHEMA_DEPTH = 64;

export type CompileResult = { ok: true } | { ok: false; message: string };

interface Compiled {
  result: CompileResult;
  /** Present whenever Ajv compiled the schema, even when `result` reports a shape problem. */
  validate?: ValidateFunction;
  /** The same schema compiled to stop at its first error, made when the error cap trips. */
  firstError?: () => ValidateFunction;
  /** Patterns that run on the native (backtracking) engine, described for progress steps. */
  natives: string;
}

export { BUDGET_KEYWORD, describeSchemaStep } from './schema-step.ts';
export type { SchemaStep, StepBlocker, StepListener } from './schema-step.ts';

export interface OutputSchemaOptions {
  /** Tools that were called: their schemas are compiled; the rest are checked without compiling. */
  called?: ReadonlySet<string>;
  onStep?: StepListener;
  blocked?: StepBlocker;
  /** Where compiled schemas are kept (default: the cache this thread shares, `sharedOutputSchemas`). */
  cache?: OutputSchemaCache;
}

export function dialectOf(schema: Record<string, unknown>): Dialect | { unknown: string } {
  const declared = own(schema, '$schema');
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') return { unknown: JSON.stringify(declared)?.slice(0, 80) ?? String(declared) };
  for (const [re, dialect] of DIALECTS) if (re.test(declared)) return dialect;
  return { unknown: declared.slice(0, 120) };
}

/** sha256 of the schema's canonical JSON (keys sorted): the cache key of a compiled schema. */
export function schemaHash(schema: unknown): string {
  return hashAndWeight(schema).hash;
}

/** The hash, and the length of the canonical JSON: the schema's weight in the shared cache. */
function hashAndWeight(schema: unknown): { hash: string; weight: number } {
  const canonical = canonicalKey(schema);
  return { hash: createHash('sha256').update(canonical).digest('hex'), weight: canonical.length };
}

type Mode = 'full' | 'first';

/** Bounds of the shared cache: entries, and characters of canonical schema JSON (~20 bytes of heap each once compiled). */
const MAX_SHARED_SCHEMAS = 256;
const MAX_SHARED_WEIGHT = 1 << 20;
/** Results of checking uncalled tools' schemas: plain data, evicted oldest first. */
const MAX_SHARED_CHECKED = 4096;

/**
 * Compiled seller schemas shared by every OutputSchemaCompiler of a thread: the judge worker judges agent
 * after agent, and a fleet's sellers mostly advertise the same schemas (bench/README.md: 64 agents, 16.4 s
 * → 12.0 s). Keyed by content (sha256 of canonical JSON), so what an agent gets from it depends only on the
 * content of its own schema, never on which other schemas came first: the refusals (seller-schema.ts) keep
 * every `$ref` inside its own document, Ajv is never given a loader, and a schema whose nested `$id` clashes
 * with one compiled earlier in the instance is compiled in a fresh instance — the validator and the messages
 * are the same whoever compiled it. A step an agent's retry must leave out (StepBlocker) is asked before
 * the cache, so a cached entry never undoes it.
 *
 * Bounded, so a hostile fleet cannot grow it without limit: an Ajv instance keeps everything it compiled
 * (its scope holds every generated function), so evicting single entries would free nothing. When the
 * cache reaches `maxEntries` entries or `maxWeight` characters of schema it is dropped whole, instances
 * included, and starts again; a schema heavier than `maxWeight` on its own is never shared (its agent
 * alone keeps it, compiled in an instance of its own). At the defaults the cache holds at most ~20–25 MB
 * of the worker's heap (measured: ~20 bytes of heap per character of schema, compiled), well inside the
 * judge's 512 MB budget and its retirement at half of it.
 */
export class OutputSchemaCache {
  private compiled = new Map<string, Compiled>();
  private readonly checked = new Map<string, CompileResult>();
  private instances = new Map<string, Ajv>();
  private weight = 0;

  constructor(
    readonly maxEntries = MAX_SHARED_SCHEMAS,
    readonly maxWeight = MAX_SHARED_WEIGHT,
    readonly maxChecked = MAX_SHARED_CHECKED,
  ) {}

  /** Compiled entries held and their total weight (tests, measurements). */
  get size(): { entries: number; weight: number } {
    return { entries: this.compiled.size, weight: this.weight };
  }

  get(hash: string): Compiled | undefined {
    return this.compiled.get(hash);
  }

  checkedResult(hash: string): CompileResult | undefined {
    return this.checked.get(hash);
  }

  /** Whether a schema of this weight may be compiled into the shared instances at all. */
  fits(weight: number): boolean {
    return weight <= this.maxWeight;
  }

  /** Make room for an entry of `weight`: called before compiling it, since the compile lands in the instances. */
  reserve(weight: number): void {
    if (this.compiled.size >= this.maxEntries || this.weight + weight > this.maxWeight) this.dropCompiled();
  }

  set(hash: string, entry: Compiled, weight: number): void {
    this.compiled.set(hash, entry);
    this.weight += weight;
  }

  setChecked(hash: string, result: CompileResult): void {
    if (this.checked.size >= this.maxChecked) {
      const oldest = this.checked.keys().next();
      if (!oldest.done) this.checked.delete(oldest.value);
    }
    this.checked.set(hash, result);
  }

  /**
   * Compile now what every seller schema of `dialect` is first checked against: the dialect's meta-schema
   * (~0.1–0.2 CPU-s, once per generation; only the `full` instance checks schemas, see newAjv). Our own work, done before a seller's clock runs
   * (the judge worker warms up while the sellers start); nothing a verdict depends on changes.
   */
  warm(dialect: Dialect = '2020-12'): void {
    this.instance(dialect, 'full').validateSchema({});
  }

  /** The Ajv of a dialect and mode that seller schemas are compiled in (this generation's). */
  instance(dialect: Dialect, mode: Mode): Ajv {
    const key = `${dialect}/${mode}`;
    let ajv = this.instances.get(key);
    if (!ajv) {
      ajv = newAjv(dialect, mode);
      this.instances.set(key, ajv);
    }
    return ajv;
  }

  clear(): void {
    this.dropCompiled();
    this.checked.clear();
  }

  private dropCompiled(): void {
    this.compiled = new Map();
    this.instances = new Map();
    this.weight = 0;
  }
}

/** The cache every compiler of this thread shares unless given its own. */
export const sharedOutputSchemas = new OutputSchemaCache();

export class OutputSchemaCompiler {
  /** Per tool, the schema object last seen and its cache key (linear in the schema: once) — or, past the bounds, its refusal. */
  private readonly byTool = new Map<string, { schema: unknown; hash: string; weight: number; over?: { ok: false; message: string } }>();
  /** The entries this agent used, whichever generation of the cache they came from (and those too heavy to share). */
  private readonly mine = new Map<string, Compiled>();
  private readonly cache: OutputSchemaCache;
  private readonly called: ReadonlySet<string> | undefined;
  private readonly onStep: StepListener;
  private readonly blocked: StepBlocker;

  constructor(options: OutputSchemaOptions = {}) {
    this.called = options.called;
    this.onStep = options.onStep ?? (() => {});
    this.blocked = options.blocked ?? (() => undefined);
    this.cache = options.cache ?? sharedOutputSchemas;
  }

  /** Prepare the meta-schema validators (OutputSchemaCache.warm). */
  warm(): void {
    this.cache.warm();
  }

  /** Compile the tool's advertised outputSchema (once per content) — or, for a tool never called, check it. */
  compile(tool: string, schema: unknown): CompileResult {
    if (this.called && !this.called.has(tool)) return this.check(tool, schema);
    return this.entry(tool, schema).result;
  }

  /**
   * Validate `instance` against the tool's compiled outputSchema; skip when it could not be compiled.
   * `legacy_wrapper`: `instance` is the inner object of `{result:{…}}`. Against the 2.0–2.3 wrap shape
   * (`{properties:{result:…}, required:["result"]}`) it is validated as `{result: instance}` and the
   * pointers are made relative to the inner object again; against any other schema, as given (a stale
   * server may advertise the root form yet still wrap).
   */
  validate(
    tool: string,
    schema: unknown,
    instance: unknown,
    layer?: 'legacy_wrapper' | 'validate_root',
  ): { errors: SchemaError[]; omitted?: number } | { skip: string } {
    const entry = this.entry(tool, schema);
    if (!entry.validate)
      return { skip: `outputSchema of ${tool} was not compiled: ${entry.result.ok ? 'unknown reason' : entry.result.message}` };
    const stopped = this.blocked({ action: 'validate', tool, schema: 'outputSchema' });
    // A schema the seller controls that cannot be applied within the budget is the seller's finding.
    if (stopped)
      return {
        errors: [
          {
            pointer: '/',
            keyword: BUDGET_KEYWORD,
            expected: 'an outputSchema a client can apply within the judging budget',
            found: stopped,
          },
        ],
      };
    const unwrapInner = layer === 'legacy_wrapper' && isLegacyWrapShape(schema);
    // Our own one-key object around the seller's value (no seller keys are copied).
    const subject = unwrapInner ? { result: instance } : instance;
    this.onStep({ action: 'validate', tool, schema: 'outputSchema', patterns: entry.natives });
    try {
      const outcome = validateBounded(entry.validate, entry.firstError ?? (() => entry.validate!), subject);
      if (outcome.valid) return { errors: [] };
      const { errors, omitted } = boundSchemaErrors(outcome.errors as ErrorObject[], subject);
      const listed = unwrapInner ? errors.map(relativeToResult) : errors;
      const left = outcome.capped ? Math.max(omitted ?? 0, ERROR_CAP - listed.length) : omitted;
      return left ? { errors: listed, omitted: left } : { errors: listed };
    } catch (e) {
      return { skip: `validating against the outputSchema of ${tool} threw: ${errorText(e)}` };
    }
  }

  private hashOf(tool: string, schema: unknown): { hash: string; weight: number; over?: { ok: false; message: string } } {
    const seen = this.byTool.get(tool);
    if (seen && seen.schema === schema) return seen;
    const over = oversize(schema);
    const hashed = over ? { schema, hash: '', weight: 0, over } : { schema, ...hashAndWeight(schema) };
    this.byTool.set(tool, hashed);
    return hashed;
  }

  private entry(tool: string, schema: unknown): Compiled {
    const { hash, weight, over } = this.hashOf(tool, schema);
    if (over) return { result: over, natives: '' };
    let entry = this.mine.get(hash);
    if (entry) return entry;
    // Asked before the shared cache: a step left out of this agent's retry stays out, whoever compiled it since.
    const stopped = this.blocked({ action: 'compile', tool, schema: 'outputSchema' });
    if (stopped) return { result: { ok: false, message: stopped }, natives: '' };
    entry = this.cache.get(hash);
    if (!entry) {
      const natives = describePatterns(nativePatternsIn(schema));
      this.onStep({ action: 'compile', tool, schema: 'outputSchema', patterns: natives });
      const shared = this.cache.fits(weight);
      if (shared) this.cache.reserve(weight);
      entry = compileNow(schema, shared ? this.cache : new OutputSchemaCache());
      entry.natives = natives;
      if (shared) this.cache.set(hash, entry, weight);
    }
    this.mine.set(hash, entry);
    return entry;
  }

  /** An uncalled tool's schema: everything `compileNow` finds, bar what only code generation shows. */
  private check(tool: string, schema: unknown): CompileResult {
    const { hash, over } = this.hashOf(tool, schema);
    if (over) return over;
    const known = this.mine.get(hash)?.result ?? this.cache.get(hash)?.result ?? this.cache.checkedResult(hash);
    if (known) return known;
    const result = checkNow(schema, this.cache);
    this.cache.setChecked(hash, result);
    return result;
  }
}

/**
 * A schema past the bounds, refused before anything walks it whole: the walk stops at the bounds, while the
 * cache key (canonical JSON of the whole schema) of an 8 MB outputSchema nested 200k levels cost ~0.3 s and
 * ~100 MB each time it was asked for.
 */
function oversize(schema: unknown): { ok: false; message: string } | undefined {
  if (!isObject(schema)) return undefined;
  const size = measure(schema);
  if (size.nodes <= MAX_SCHEMA_NODES && size.depth <= MAX_SCHEMA_DEPTH) return undefined;
  return {
    ok: false,
    message: `outputSchema is too large to compile (${size.nodes} nodes, depth ${size.depth}; limits ${MAX_SCHEMA_NODES} / ${MAX_SCHEMA_DEPTH})`,
  };
}

/** The bounds, dialect and refusals every seller schema goes through first. */
function precheck(schema: unknown): { ok: false; message: string } | { dialect: Dialect; schema: Record<string, unknown> } {
  if (!isObject(schema)) {
    const kind = schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema;
    return { ok: false, message: `outputSchema is not a JSON Schema object (found ${kind})` };
  }
  const over = oversize(schema);
  if (over) return over;
  const dialect = dialectOf(schema);
  if (typeof dialect !== 'string') {
    return {
      ok: false,
      message: `outputSchema declares an unsupported $schema ${JSON.stringify(dialect.unknown)} (supported: 2020-12, draft-07)`,
    };
  }
  const refused = refusalIn(schema);
  if (refused) return { ok: false, message: refused.message };
  return { dialect, schema };
}

/**
 * Compile a seller schema in `cache`'s instances. Its first-error form is compiled on demand in the
 * instance current then (the closure holds the schema and the cache, never an agent's compiler).
 */
function compileNow(schema: unknown, cache: OutputSchemaCache): Compiled {
  const pre = precheck(schema);
  if ('ok' in pre) return { result: pre, natives: '' };
  const { dialect } = pre;
  let validate: ValidateFunction;
  try {
    validate = compileShared(cache, dialect, pre.schema, 'full');
  } catch (e) {
    return { result: { ok: false, message: compileMessage(cache, dialect, pre.schema, e) }, natives: '' };
  }
  if ((validate as { $async?: unknown }).$async) {
    return {
      result: { ok: false, message: 'outputSchema compiles to an asynchronous validator ($async); the harness refuses it' },
      natives: '',
    };
  }
  let first: ValidateFunction | undefined;
  const firstError = (): ValidateFunction => (first ??= compileShared(cache, dialect, pre.schema, 'first'));
  return { validate, firstError, result: rootTypeResult(pre.schema, 'compiles'), natives: '' };
}

function checkNow(schema: unknown, cache: OutputSchemaCache): CompileResult {
  const pre = precheck(schema);
  if ('ok' in pre) return pre;
  const { dialect } = pre;
  const ajv = cache.instance(dialect, 'full');
  let valid: boolean;
  try {
    valid = ajv.validateSchema(pre.schema) === true;
  } catch (e) {
    return { ok: false, message: compileMessage(cache, dialect, pre.schema, e) };
  }
  if (!valid)
    return {
      ok: false,
      message: compileMessage(cache, dialect, pre.schema, new Error(`schema is invalid: ${ajv.errorsText(ajv.errors)}`)),
    };
  const badId = badIdIn(cache, dialect, pre.schema);
  if (badId) return { ok: false, message: badId };
  const problem = uncompiledProblem(pre.schema);
  if (problem) return { ok: false, message: `${problem.message} (${dialect})` };
  return rootTypeResult(pre.schema, 'is a valid schema');
}

/**
 * Compile in the cache's instance for the dialect, then drop the schema's root `$id` from it so the next
 * schema may declare the same `$id` (Ajv throws on a duplicate). If a clash still happens (nested `$id`s),
 * the schema gets a fresh instance of its own.
 */
function compileShared(cache: OutputSchemaCache, dialect: Dialect, schema: Record<string, unknown>, mode: Mode): ValidateFunction {
  const ajv = cache.instance(dialect, mode);
  try {
    const validate = ajv.compile(schema);
    ajv.removeSchema(schema);
    return validate;
  } catch (e) {
    ajv.removeSchema(schema);
    if (!/already exists|resolves to more than one schema/.test(errorText(e))) throw e;
    return newAjv(dialect, mode).compile(schema);
  }
}

/** A `$id` Ajv's URI parser rejects (e.g. `my_tool:output`), as a compile failure. */
function badIdIn(cache: OutputSchemaCache, dialect: Dialect, schema: Record<string, unknown>): string | undefined {
  const resolver = cache.instance(dialect, 'first').opts.uriResolver;
  for (const id of collectIds(schema)) {
    const parsed = resolver.parse(id) as { error?: unknown };
    if (typeof parsed.error === 'string') {
      return `outputSchema $id ${JSON.stringify(id.slice(0, 120))} is not a URI Ajv accepts (${parsed.error}); the schema does not compile (${dialect})`;
    }
  }
  return undefined;
}

/** A readable compile failure; names the `$id` Ajv's URI parser rejects (e.g. `my_tool:output`). */
function compileMessage(cache: OutputSchemaCache, dialect: Dialect, schema: Record<string, unknown>, e: unknown): string {
  const detail = isCapStop(e) ? `schema is invalid: more than ${ERROR_CAP} problems` : errorText(e).slice(0, 300);
  const badId = badIdIn(cache, dialect, schema);
  if (badId) return badId;
  const rootId = own(schema, '$id');
  const idNote = typeof rootId === 'string' ? ` (root $id ${JSON.stringify(rootId.slice(0, 120))})` : '';
  return `outputSchema does not compile under ${dialect}${idNote}: ${detail}`;
}

function rootTypeResult(schema: Record<string, unknown>, what: string): CompileResult {
  const type = own(schema, 'type');
  if (type === 'object') return { ok: true };
  const found = type === undefined ? 'no root "type"' : `root type ${JSON.stringify(type)?.slice(0, 60)}`;
  return { ok: false, message: `outputSchema ${what} but has ${found}; MCP requires root type "object"` };
}

/** The MCP TypeScript SDK 2.0–2.3 wrap: `{properties:{result:{…}}, required:["result"]}`. */
export function isLegacyWrapShape(schema: unknown): boolean {
  const required = own(schema, 'required');
  return Array.isArray(required) && required.length === 1 && required[0] === 'result' && isObject(own(own(schema, 'properties'), 'result'));
}

function relativeToResult(e: SchemaError): SchemaError {
  if (e.pointer === '/result') return { ...e, pointer: '/' };
  if (e.pointer.startsWith('/result/')) return { ...e, pointer: e.pointer.slice('/result'.length) };
  return e;
}

/**
 * An Ajv for seller schemas. `full`: every error, up to the cap; `first`: stops at the first error.
 * Never a `loadSchema`: nothing a schema references is ever fetched.
 */
function newAjv(dialect: Dialect, mode: Mode): Ajv {
  const code = mode === 'full' ? { regExp: linearRegExp, process: capErrorsInCode } : { regExp: linearRegExp };
  // Only `full` checks a schema against the meta-schema (compiling it costs ~0.1–0.2 CPU-s per instance): a
  // schema reaches `first` only once its `full` form compiled, so it has been checked already.
  const options = { strict: false, allErrors: mode === 'full', logger: false, code, validateSchema: mode === 'full' } as const;
  const ajv = dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  useLinearUniqueItems(ajv);
  return ajv;
}

/** Every `$id` string in a schema (bounded walk; the size check ran first). */
function collectIds(schema: unknown): string[] {
  const ids: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > MAX_SCHEMA_DEPTH || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1);
      return;
    }
    for (const key of Object.keys(node)) {
      const value = own(node, key);
      if (key === '$id' && typeof value === 'string') ids.push(value);
      else walk(value, depth + 1);
    }
  };
  walk(schema, 0);
  return ids;
}

function measure(schema: unknown): { nodes: number; depth: number } {
  let nodes = 0;
  let maxDepth = 0;
  const walk = (node: unknown, depth: number): void => {
    nodes++;
    if (depth > maxDepth) maxDepth = depth;
    if (nodes > MAX_SCHEMA_NODES || depth > MAX_SCHEMA_DEPTH || node === null || typeof node !== 'object') return;
    for (const key of Object.keys(node)) walk(own(node, key), depth + 1);
  };
  walk(schema, 0);
  return { nodes, depth: maxDepth };
}
