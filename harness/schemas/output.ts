// Tool outputSchemas, compiled by their own dialect (`$schema`; absent → 2020-12, MCP 2025-11-25's
// default; draft-07 allowed) in Ajv instances owned by one agent, once per tool. A schema that does not
// compile is a seller finding returned as `{ok:false, message}`, never an exception: one bad tool must
// not stop the others (the SDK client's listTools() fails for every tool on one bad outputSchema).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { SchemaError } from '../checks/check.ts';
import { isObject, own } from '../extract/json.ts';
import { boundSchemaErrors } from './errors.ts';
import { errorText } from './fetch.ts';
import { useLinearUniqueItems } from './unique-items.ts';

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
  schema: unknown;
  result: CompileResult;
  /** Present whenever Ajv compiled the schema, even when `result` reports a shape problem. */
  validate?: ValidateFunction;
}

export function dialectOf(schema: Record<string, unknown>): Dialect | { unknown: string } {
  const declared = own(schema, '$schema');
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') return { unknown: JSON.stringify(declared)?.slice(0, 80) ?? String(declared) };
  for (const [re, dialect] of DIALECTS) if (re.test(declared)) return dialect;
  return { unknown: declared.slice(0, 120) };
}

export class OutputSchemaCompiler {
  private readonly shared = new Map<Dialect, Ajv>();
  private readonly byTool = new Map<string, Compiled>();

  /** Compile (once per tool and schema object) the tool's advertised outputSchema. */
  compile(tool: string, schema: unknown): CompileResult {
    return this.entry(tool, schema).result;
  }

  /**
   * Validate `instance` against the tool's compiled outputSchema; skip when it could not be compiled.
   * `legacy_wrapper`: `instance` is the inner object of `{result:{…}}`. Against the 2.0–2.3 wrap shape
   * (`{properties:{result:…}, required:["result"]}`) it is validated as `{result: instance}` and the
   * pointers are made relative to the inner object again; against any other schema, as given (a stale
   * server may advertise the root form yet still wrap).
   */
  validate(tool: string, schema: unknown, instance: unknown, layer?: 'legacy_wrapper' | 'validate_root'): { errors: SchemaError[]; omitted?: number } | { skip: string } {
    const entry = this.entry(tool, schema);
    if (!entry.validate) return { skip: `outputSchema of ${tool} was not compiled: ${entry.result.ok ? 'unknown reason' : entry.result.message}` };
    const unwrapInner = layer === 'legacy_wrapper' && isLegacyWrapShape(schema);
    // Our own one-key object around the seller's value (no seller keys are copied).
    const subject = unwrapInner ? { result: instance } : instance;
    try {
      if (entry.validate(subject)) return { errors: [] };
      const { errors, omitted } = boundSchemaErrors(entry.validate.errors as ErrorObject[] | null, subject);
      const listed = unwrapInner ? errors.map(relativeToResult) : errors;
      return omitted ? { errors: listed, omitted } : { errors: listed };
    } catch (e) {
      return { skip: `validating against the outputSchema of ${tool} threw: ${errorText(e)}` };
    }
  }

  private entry(tool: string, schema: unknown): Compiled {
    const cached = this.byTool.get(tool);
    if (cached && cached.schema === schema) return cached;
    const compiled = this.compileNow(schema);
    this.byTool.set(tool, compiled);
    return compiled;
  }

  private compileNow(schema: unknown): Compiled {
    if (!isObject(schema)) {
      const kind = schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema;
      return { schema, result: { ok: false, message: `outputSchema is not a JSON Schema object (found ${kind})` } };
    }
    const size = measure(schema);
    if (size.nodes > MAX_SCHEMA_NODES || size.depth > MAX_SCHEMA_DEPTH) {
      return { schema, result: { ok: false, message: `outputSchema is too large to compile (${size.nodes} nodes, depth ${size.depth}; limits ${MAX_SCHEMA_NODES} / ${MAX_SCHEMA_DEPTH})` } };
    }
    const dialect = dialectOf(schema);
    if (typeof dialect !== 'string') {
      return { schema, result: { ok: false, message: `outputSchema declares an unsupported $schema ${JSON.stringify(dialect.unknown)} (supported: 2020-12, draft-07)` } };
    }

    let validate: ValidateFunction;
    try {
      validate = this.compileShared(dialect, schema);
    } catch (e) {
      return { schema, result: { ok: false, message: this.compileMessage(dialect, schema, e) } };
    }

    const type = own(schema, 'type');
    if (type !== 'object') {
      const found = type === undefined ? 'no root "type"' : `root type ${JSON.stringify(type)?.slice(0, 60)}`;
      return { schema, validate, result: { ok: false, message: `outputSchema compiles but has ${found}; MCP requires root type "object"` } };
    }
    return { schema, validate, result: { ok: true } };
  }

  /**
   * Compile in the agent's instance for the dialect, then drop the schema's root `$id` from it so the
   * next tool may advertise the same `$id` (Ajv throws on a duplicate). If a clash still happens (nested
   * `$id`s), the tool gets a fresh instance of its own.
   */
  private compileShared(dialect: Dialect, schema: Record<string, unknown>): ValidateFunction {
    const ajv = this.instance(dialect);
    try {
      const validate = ajv.compile(schema);
      ajv.removeSchema(schema);
      return validate;
    } catch (e) {
      ajv.removeSchema(schema);
      if (!/already exists|resolves to more than one schema/.test(errorText(e))) throw e;
      return newAjv(dialect).compile(schema);
    }
  }

  private instance(dialect: Dialect): Ajv {
    let ajv = this.shared.get(dialect);
    if (!ajv) {
      ajv = newAjv(dialect);
      this.shared.set(dialect, ajv);
    }
    return ajv;
  }

  /** A readable compile failure; names the `$id` Ajv's URI parser rejects (e.g. `my_tool:output`). */
  private compileMessage(dialect: Dialect, schema: Record<string, unknown>, e: unknown): string {
    const detail = errorText(e).slice(0, 300);
    const resolver = this.instance(dialect).opts.uriResolver;
    for (const id of collectIds(schema)) {
      const parsed = resolver.parse(id) as { error?: unknown };
      if (typeof parsed.error === 'string') {
        return `outputSchema $id ${JSON.stringify(id.slice(0, 120))} is not a URI Ajv accepts (${parsed.error}); the schema does not compile (${dialect})`;
      }
    }
    const rootId = own(schema, '$id');
    const idNote = typeof rootId === 'string' ? ` (root $id ${JSON.stringify(rootId.slice(0, 120))})` : '';
    return `outputSchema does not compile under ${dialect}${idNote}: ${detail}`;
  }
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

function newAjv(dialect: Dialect): Ajv {
  const options = { strict: false, allErrors: true, logger: false } as const;
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
