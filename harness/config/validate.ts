// Validation against config/adcp-conformance.schema.json (draft-07, Ajv compiled once per process),
// turning Ajv's first error into one ConfigError a person can act on.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ConfigError, pointerSegment } from './errors.ts';

export const SCHEMA_PATH = fileURLToPath(new URL('../../config/adcp-conformance.schema.json', import.meta.url));

let compiled: { ajv: Ajv; id: string; validate: ValidateFunction } | undefined;

function schema(): NonNullable<typeof compiled> {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: false, verbose: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
  // Annotation keyword: the phrase a failed constraint shows ("must be <x-expected>").
  ajv.addVocabulary(['x-expected']);
  const doc = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $id: string };
  compiled = { ajv, id: doc.$id, validate: ajv.compile(doc) };
  return compiled;
}

const validator = (): ValidateFunction => schema().validate;

/**
 * One value against one definition of the config schema (`accountRef` …), for a setting given outside a
 * config file (a command-line flag): a ConfigError whose file is `label`, as a config's own would read.
 */
export function validateSetting(definition: string, value: unknown, label: string): void {
  const { ajv, id } = schema();
  const validate = ajv.getSchema(`${id}#/definitions/${definition}`);
  if (!validate) throw new Error(`the config schema has no definition '${definition}'`);
  if (validate(value)) return;
  throw firstError(validate.errors, label, value, 'is not valid');
}

export function validateConfig(doc: unknown, file: string): void {
  const validate = validator();
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
