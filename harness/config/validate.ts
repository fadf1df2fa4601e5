// Validation against config/adcp-conformance.schema.json (draft-07), turning Ajv's first error into one
// ConfigError a person can act on. Compiling the schema cost ~0.15 CPU-s of every run that reads a config:
// the build writes its validators as Ajv standalone code (configValidatorsSource, below) and a compiled run
// loads those; from the sources, or without them, Ajv compiles it once per process. Same options, same errors.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { ConfigError, pointerSegment } from './errors.ts';

export const SCHEMA_PATH = fileURLToPath(new URL('../../config/adcp-conformance.schema.json', import.meta.url));

const AJV_OPTIONS: Options = {
  allErrors: false,
  verbose: true,
  strict: true,
  strictTypes: false,
  strictRequired: false,
  allowUnionTypes: true,
};
/** The build's standalone validators, beside the compiled module (scripts/build.mjs); absent from the sources. */
export const PRECOMPILED_FILE = 'config-validators.cjs';

interface ConfigValidators {
  config: ValidateFunction;
  /** A definition of the schema (`accountRef` …), or undefined when there is none by that name. */
  definition(name: string): ValidateFunction | undefined;
}

let validators: (ConfigValidators & { origin: 'precompiled' | 'compiled' }) | undefined;

function configAjv(extra: Options = {}): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, ...extra });
  // Annotation keyword: the phrase a failed constraint shows ("must be <x-expected>").
  ajv.addVocabulary(['x-expected']);
  return ajv;
}

const readSchema = (): { $id: string; definitions?: Record<string, unknown> } =>
  JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $id: string; definitions?: Record<string, unknown> };

function schema(): ConfigValidators & { origin: 'precompiled' | 'compiled' } {
  if (!validators) {
    const built = precompiled();
    validators = built ? { ...built, origin: 'precompiled' } : { ...compiled(), origin: 'compiled' };
  }
  return validators;
}

/** Whether this process validates configs with the build's validators or compiled the schema itself (tests). */
export function configValidatorsOrigin(): 'precompiled' | 'compiled' {
  return schema().origin;
}

function compiled(): ConfigValidators {
  const ajv = configAjv();
  const doc = readSchema();
  return { config: ajv.compile(doc), definition: (name) => ajv.getSchema(`${doc.$id}#/definitions/${name}`) };
}

/** The build's validators, when this is a compiled build that has them. */
function precompiled(): ConfigValidators | undefined {
  let table: Record<string, ValidateFunction | undefined>;
  try {
    table = createRequire(import.meta.url)(`./${PRECOMPILED_FILE}`) as Record<string, ValidateFunction | undefined>;
  } catch {
    return undefined;
  }
  const config = table['config'];
  if (typeof config !== 'function') return undefined;
  return { config, definition: (name) => (Object.hasOwn(table, `d_${name}`) ? table[`d_${name}`] : undefined) };
}

/**
 * The validators as Ajv standalone code, a CommonJS module exporting `config` (the whole file) and `d_<name>`
 * for each definition; scripts/build.mjs writes it beside the compiled module as config-validators.cjs.
 */
export async function configValidatorsSource(): Promise<string> {
  type StandaloneCode = (ajv: Ajv, refs: Record<string, string>) => string;
  // CommonJS: its function is the module itself or its `default`, depending on the loader.
  const standalone = (await import('ajv/dist/standalone/index.js')) as unknown as { default?: StandaloneCode } & StandaloneCode;
  const standaloneCode: StandaloneCode = standalone.default ?? standalone;
  const generator = configAjv({ code: { source: true } });
  const doc = readSchema();
  generator.addSchema(doc);
  const refs: Record<string, string> = { config: doc.$id };
  for (const name of Object.keys(doc.definitions ?? {})) refs[`d_${name}`] = `${doc.$id}#/definitions/${name}`;
  return standaloneCode(generator, refs);
}

/**
 * One value against one definition of the config schema (`accountRef` …), for a setting given outside a
 * config file (a command-line flag): a ConfigError whose file is `label`, as a config's own would read.
 */
export function validateSetting(definition: string, value: unknown, label: string): void {
  const validate = schema().definition(definition);
  if (!validate) throw new Error(`the config schema has no definition '${definition}'`);
  if (validate(value)) return;
  throw firstError(validate.errors, label, value, 'is not valid');
}

export function validateConfig(doc: unknown, file: string): void {
  const validate = schema().config;
  if (validate(doc)) return;
  throw firstError(validate.errors, file, doc, 'does not match the configuration schema');
}

/** The error a person can act on first (one with an `x-expected` hint, else Ajv's first), as a ConfigError. */
function firstError(errors: ErrorObject[] | null | undefined, file: string, doc: unknown, fallback: string): ConfigError {
  const all = errors ?? [];
  const chosen = all.find((e) => expectedHint(e) !== undefined) ?? all[0];
  return chosen ? describe(chosen, file, doc) : new ConfigError(file, '', fallback);
}

function expectedHint(e: ErrorObject): string | undefined {
  const parent = e.parentSchema as Record<string, unknown> | undefined;
  const hint = parent?.['x-expected'];
  // `required` / `additionalProperties` errors sit on the parent object: its hint is not about them.
  if (e.keyword === 'required' || e.keyword === 'additionalProperties' || e.keyword === 'false schema') return undefined;
  return typeof hint === 'string' ? hint : undefined;
}

function describe(e: ErrorObject, file: string, doc: unknown): ConfigError {
  const params = e.params as Record<string, unknown>;
  // An error inside `propertyNames` is about a key: point at it.
  const at = e.propertyName !== undefined ? `${e.instancePath}/${pointerSegment(e.propertyName)}` : e.instancePath;
  const hint = expectedHint(e);
  switch (e.keyword) {
    case 'required':
      return new ConfigError(file, `${at}/${pointerSegment(String(params['missingProperty']))}`, 'is required');
    case 'additionalProperties': {
      const known = Object.keys(((e.parentSchema as Record<string, unknown>)?.['properties'] as object) ?? {});
      const key = String(params['additionalProperty']);
      return new ConfigError(
        file,
        `${at}/${pointerSegment(key)}`,
        `'${key}' is not a known setting${known.length ? ` (expected one of: ${known.join(', ')})` : ''}`,
      );
    }
    case 'false schema': {
      const transport = transportAt(doc, at);
      return new ConfigError(
        file,
        at,
        `is not allowed for transport '${transport ?? '?'}' (http takes url, headers and credentialHeaders; stdio takes command, args, env and cwd)`,
      );
    }
    case 'propertyNames':
      return new ConfigError(file, `${at}/${pointerSegment(String(params['propertyName']))}`, `must be ${hint ?? 'a valid name'}`);
    case 'enum':
      return new ConfigError(
        file,
        at,
        `must be one of: ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      );
    case 'type':
      return new ConfigError(file, at, hint ? `must be ${hint}` : `must be ${article(String(params['type']))}`);
    default:
      return new ConfigError(file, at, hint ? `must be ${hint}` : (e.message ?? 'is not valid'));
  }
}

function article(type: string): string {
  const t = type.replace(/,/g, ' or ');
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

/** The `transport` of the agent a pointer such as /agents/2/url falls under. */
function transportAt(doc: unknown, pointer: string): string | undefined {
  const m = /^\/agents\/(\d+)/.exec(pointer);
  if (!m || !doc || typeof doc !== 'object') return undefined;
  const agents = (doc as { agents?: unknown }).agents;
  const agent = Array.isArray(agents) ? agents[Number(m[1])] : undefined;
  const t = agent && typeof agent === 'object' ? (agent as { transport?: unknown }).transport : undefined;
  return typeof t === 'string' ? t : undefined;
}
