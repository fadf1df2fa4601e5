// Test helper: the official AdCP schema trees (3.0 from @adcp/sdk, 3.1.19 from ../shared when present)
// loaded into draft-07 Ajv instances, and task → response/request schema lookup via each tree's index.json.
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its callable is the `default` property.
const addFormats = addFormatsModule.default;

const here = path.dirname(fileURLToPath(import.meta.url));
export const projectRoot = path.resolve(here, '..', '..');
export const sharedDir = path.resolve(projectRoot, '..', 'shared');
export const sharedPresent = existsSync(path.join(sharedDir, 'adcp', 'schemas', '3.1.19', 'index.json'));

function sdkTree(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@adcp/sdk/package.json');
  return path.join(path.dirname(pkg), 'dist', 'lib', 'schemas-data', '3.0');
}

export interface SchemaTree {
  label: string;
  dir: string;
  ajv: Ajv;
  /** `get_products` → its response validator (first protocol section that lists the task). */
  response(task: string): ValidateFunction;
  request(task: string): ValidateFunction;
}

function* schemaFiles(dir: string, rel = ''): Generator<string> {
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = path.join(rel, entry.name);
    if (entry.isDirectory()) {
      if (child === path.join('core', 'async-response-refs') || entry.name === 'bundled') continue;
      yield* schemaFiles(dir, child);
    } else if (entry.name.endsWith('.json') && child !== 'index.json') {
      yield path.join(dir, child);
    }
  }
}

const trees = new Map<string, SchemaTree>();

export function loadTree(label: '3.0' | '3.1.19'): SchemaTree {
  const cached = trees.get(label);
  if (cached) return cached;
  const dir = label === '3.0' ? sdkTree() : path.join(sharedDir, 'adcp', 'schemas', '3.1.19');
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const file of schemaFiles(dir)) {
    const schema: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (schema && typeof schema === 'object' && '$id' in schema) {
      try {
        ajv.addSchema(schema as object);
      } catch {
        /* non-schema JSON (manifest) */
      }
    }
  }
  const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as {
    schemas: Record<string, { tasks?: Record<string, { request?: { $ref: string }; response?: { $ref: string } }> }>;
  };
  const lookup = (task: string, kind: 'request' | 'response'): ValidateFunction => {
    const key = task.replaceAll('_', '-');
    // list_creative_formats is listed under media-buy and creative; prefer media-buy (the seller side).
    for (const section of ['media-buy', 'creative', 'signals', 'protocol', ...Object.keys(index.schemas)]) {
      const ref = index.schemas[section]?.tasks?.[key]?.[kind]?.$ref;
      if (ref) {
        const fn = ajv.getSchema(ref);
        if (!fn) throw new Error(`${label}: cannot compile ${ref}`);
        return fn;
      }
    }
    throw new Error(`${label}: no ${kind} schema for ${task}`);
  };
  const tree: SchemaTree = { label, dir, ajv, response: (t) => lookup(t, 'response'), request: (t) => lookup(t, 'request') };
  trees.set(label, tree);
  return tree;
}

export function formatErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.keyword} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('\n');
}

/** Validation errors of `payload` for `task` in the tree, as readable lines ([] when valid). */
export function responseErrors(tree: SchemaTree, task: string, payload: unknown): string[] {
  const validate = tree.response(task);
  return validate(payload) ? [] : formatErrors(validate.errors).split('\n');
}

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A sub-schema with the document its local `#/…` refs resolve in. */
interface At {
  doc: Json;
  schema: Json;
}

/**
 * Every sub-schema `at` stands for: itself, what its `$ref`s point to, and its allOf / anyOf / oneOf /
 * then / else branches (a union: lenient, so a key is "declared" when any branch declares it).
 */
function flatten(tree: SchemaTree, at: At): At[] {
  const out: At[] = [];
  const stack = [at];
  while (stack.length > 0 && out.length < 2000) {
    const { doc, schema } = stack.pop()!;
    out.push({ doc, schema });
    const ref = schema['$ref'];
    if (typeof ref === 'string') {
      if (ref.startsWith('#/')) {
        let target: unknown = doc;
        for (const part of ref.slice(2).split('/')) target = isJson(target) ? target[part] : undefined;
        if (isJson(target)) stack.push({ doc, schema: target });
      } else {
        const target = tree.ajv.getSchema(ref)?.schema;
        if (isJson(target)) stack.push({ doc: target, schema: target });
      }
    }
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const list = schema[key];
      if (Array.isArray(list)) for (const s of list) if (isJson(s)) stack.push({ doc, schema: s });
    }
    for (const key of ['then', 'else']) {
      const s = schema[key];
      if (isJson(s)) stack.push({ doc, schema: s });
    }
  }
  return out;
}

function walkUndeclared(tree: SchemaTree, value: unknown, schemas: At[], pointer: string, out: string[]): void {
  const flat = schemas.flatMap((s) => flatten(tree, s));
  if (isJson(value)) {
    const declared = new Map<string, At[]>();
    for (const { doc, schema } of flat) {
      const props = schema['properties'];
      if (!isJson(props)) continue;
      for (const [k, v] of Object.entries(props)) if (isJson(v)) declared.set(k, [...(declared.get(k) ?? []), { doc, schema: v }]);
    }
    for (const [k, v] of Object.entries(value)) {
      const at = declared.get(k);
      if (!at) out.push(`${pointer}/${k}`);
      else walkUndeclared(tree, v, at, `${pointer}/${k}`, out);
    }
  } else if (Array.isArray(value)) {
    const items = flat.flatMap(({ doc, schema }) => (isJson(schema['items']) ? [{ doc, schema: schema['items'] }] : []));
    value.forEach((v, i) => walkUndeclared(tree, v, items, `${pointer}/${i}`, out));
  }
}

/**
 * JSON pointers of the keys in `payload` that the tree's response schema for `task` does not declare
 * anywhere (the schemas allow extra keys, so validation alone cannot show a field of a later release).
 * Free-form objects (`context`, `ext`) are the caller's: their insides are not walked.
 */
export function undeclaredFields(tree: SchemaTree, task: string, payload: unknown): string[] {
  const root = tree.response(task).schema;
  if (!isJson(root)) return [];
  const out: string[] = [];
  walkUndeclared(tree, payload, [{ doc: root, schema: root }], '', out);
  return out.filter((p) => !/^\/(context|ext)\//.test(p));
}
