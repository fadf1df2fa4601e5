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
