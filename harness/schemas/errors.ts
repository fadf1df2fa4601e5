// Ajv errors → SchemaError: a JSON pointer into the validated instance, the keyword, what the schema
// expected (in words) and what was found there (bounded JSON). At most MAX_ERRORS are kept per
// payload; `boundSchemaErrors` counts the rest in `omitted`, `toSchemaErrors` as a final synthetic
// `more` entry.
import type { ErrorObject } from 'ajv';
import type { SchemaError } from './service.ts';

export const MAX_ERRORS = 5;
const FOUND_MAX_CHARS = 120;
const LIST_MAX_VALUES = 10;

/**
 * Ajv errors analysed per payload. A hostile payload (300k array items failing an `anyOf`) makes Ajv
 * report close to a million errors; only MAX_ERRORS are shown, so grouping more than this many buys
 * nothing and would only cost time. The rest are counted.
 */
export const MAX_ANALYSED = 1_000;

/**
 * Convert Ajv errors for `instance` (pointers relative to `instance`, '' becomes '/'): at most
 * MAX_ERRORS listed, `omitted` (present only when > 0) counting the rest. Ajv errors past MAX_ANALYSED
 * are counted unanalysed, so `omitted` may count a finding Ajv repeated through several branches.
 */
export function boundSchemaErrors(
  errors: readonly ErrorObject[] | null | undefined,
  instance: unknown,
): { errors: SchemaError[]; omitted?: number } {
  if (!errors || errors.length === 0) return { errors: [] };
  const analysed = errors.length > MAX_ANALYSED ? errors.slice(0, MAX_ANALYSED) : errors;
  const notAnalysed = errors.length - analysed.length;
  const seen = new Set<string>();
  const all: SchemaError[] = [];
  for (const e of closestBranchOnly(analysed)) {
    const one = toSchemaError(e, instance);
    const key = `${one.pointer}\u0000${one.keyword}\u0000${one.expected}`;
    if (seen.has(key)) continue; // allErrors repeats the same finding through oneOf/anyOf branches
    seen.add(key);
    all.push(one);
  }
  if (all.length <= MAX_ERRORS && notAnalysed === 0) return { errors: all };
  return { errors: all.slice(0, MAX_ERRORS), omitted: Math.max(0, all.length - MAX_ERRORS) + notAnalysed };
}

/** `boundSchemaErrors` as one list: the rest counted by a final synthetic `more` entry. */
export function toSchemaErrors(errors: readonly ErrorObject[] | null | undefined, instance: unknown): SchemaError[] {
  const { errors: shown, omitted = 0 } = boundSchemaErrors(errors, instance);
  if (omitted === 0) return shown;
  const total = errors?.length ?? 0;
  const note = total > MAX_ANALYSED ? ` (Ajv reported ${total}; the first ${MAX_ANALYSED} were analysed)` : '';
  return [
    ...shown,
    {
      pointer: '/',
      keyword: 'more',
      expected: `at most ${MAX_ERRORS} errors listed`,
      found: `${omitted} more error${omitted === 1 ? '' : 's'} not shown${note}`,
    },
  ];
}

/** True when instance location `inner` is `outer` or lies below it (`/xs/10` is not below `/xs/1`). */
function within(inner: string, outer: string): boolean {
  return inner === outer || (inner.startsWith(outer) && (outer === '' || inner.charCodeAt(outer.length) === 47)); // '/'
}

/**
 * A failed oneOf / anyOf makes Ajv report every branch's errors: for an AdCP response (success | error
 * | submitted) that reads "missing media_buy_id, missing errors, missing task_id". Keep the errors of the
 * branch that got furthest (deepest instance path, then fewest errors) and say which one on the summary.
 * Errors raised inside a separately compiled `$ref` carry that schema's own path and are always kept.
 */
const DISCRIMINATING = new Set(['const', 'enum', 'not']);

function closestBranchOnly(errors: readonly ErrorObject[]): ErrorObject[] {
  const failures = errors
    .filter((e) => (e.keyword === 'oneOf' && (e.params as { passingSchemas?: unknown }).passingSchemas == null) || e.keyword === 'anyOf')
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  if (failures.length === 0) return [...errors];
  const dropped = new Set<ErrorObject>();
  const notes = new Map<ErrorObject, number>();
  for (const failure of failures) {
    if (dropped.has(failure)) continue;
    const prefix = `${failure.schemaPath}/`;
    const branches = new Map<number, ErrorObject[]>();
    for (const e of errors) {
      if (dropped.has(e) || !e.schemaPath.startsWith(prefix) || !within(e.instancePath, failure.instancePath)) continue;
      const index = Number(e.schemaPath.slice(prefix.length).split('/')[0]);
      if (!Number.isInteger(index)) continue;
      const list = branches.get(index) ?? [];
      list.push(e);
      branches.set(index, list);
    }
    if (branches.size < 2) continue;
    // A branch ruled out by a discriminator (`status` const/enum, a `not`, a wrong type) next to the
    // failure is not the one the sender meant; among the rest the deepest, then the smallest, wins.
    const level = failure.instancePath.split('/').length;
    const ruledOut = (list: ErrorObject[]) =>
      list.some((e) => {
        const at = e.instancePath.split('/').length;
        return (DISCRIMINATING.has(e.keyword) && at <= level + 1) || (e.keyword === 'type' && at === level);
      })
        ? 1
        : 0;
    // A loop, not Math.max(...list): a spread of a huge list overflows the call stack.
    const depth = (list: ErrorObject[]) => list.reduce((max, e) => Math.max(max, e.instancePath.split('/').length), 0);
    const [best] = [...branches.entries()].sort(
      ([ia, a], [ib, b]) => ruledOut(a) - ruledOut(b) || depth(b) - depth(a) || a.length - b.length || ia - ib,
    );
    if (!best) continue;
    for (const [i, list] of branches) if (i !== best[0]) for (const e of list) dropped.add(e);
    notes.set(failure, best[0]);
  }
  return errors
    .filter((e) => !dropped.has(e))
    .map((e) => {
      const branch = notes.get(e);
      return branch === undefined ? e : { ...e, params: { ...e.params, reportedBranch: branch } };
    });
}

function toSchemaError(e: ErrorObject, instance: unknown): SchemaError {
  const params = e.params as Record<string, unknown>;
  let path = e.instancePath;
  // An extra property is reported on its parent; point at the property itself, which is what the reader needs.
  if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
    const name = params.additionalProperty ?? params.unevaluatedProperty;
    if (typeof name === 'string') path = `${path}/${escapePointerToken(name)}`;
  }
  return {
    pointer: path === '' ? '/' : path,
    keyword: e.keyword,
    expected: expectedText(e.keyword, params, e.message),
    found: jsonPreview(valueAt(instance, path)),
  };
}

function expectedText(keyword: string, p: Record<string, unknown>, message: string | undefined): string {
  switch (keyword) {
    case 'required':
      return `required property '${String(p.missingProperty)}'`;
    case 'type':
      return `type ${Array.isArray(p.type) ? p.type.join(' or ') : String(p.type)}`;
    case 'enum':
      return `one of ${listText(p.allowedValues)}`;
    case 'const':
      return `constant ${jsonPreview(p.allowedValue)}`;
    case 'additionalProperties':
      return `no additional property '${String(p.additionalProperty)}'`;
    case 'unevaluatedProperties':
      return `no unevaluated property '${String(p.unevaluatedProperty)}'`;
    case 'format':
      return `format ${String(p.format)}`;
    case 'pattern':
      return `pattern ${String(p.pattern)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${keyword} ${String(p.limit)}`;
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties':
      return `${keyword} ${String(p.limit)}`;
    case 'multipleOf':
      return `a multiple of ${String(p.multipleOf)}`;
    case 'oneOf':
      return Array.isArray(p.passingSchemas)
        ? `exactly one oneOf branch to match (branches ${p.passingSchemas.join(', ')} matched)`
        : `exactly one oneOf branch to match (none matched${branchNote(p)})`;
    case 'anyOf':
      return `at least one anyOf branch to match${p.reportedBranch === undefined ? '' : ` (none matched${branchNote(p)})`}`;
    case 'not':
      return "not to match the 'not' schema";
    case 'if':
      return `to match the '${String(p.failingKeyword)}' schema`;
    case 'uniqueItems':
      return `unique items (items ${String(p.j)} and ${String(p.i)} are equal)`;
    case 'dependencies':
    case 'dependentRequired':
      return `property '${String(p.missingProperty)}' when '${String(p.property)}' is present`;
    case 'propertyNames':
      return `property name '${String(p.propertyName)}' to match propertyNames`;
    case 'contains':
      return `an item matching 'contains'`;
    case 'false schema':
      return 'nothing (the schema is false)';
    default:
      return message ?? keyword;
  }
}

function branchNote(p: Record<string, unknown>): string {
  return typeof p.reportedBranch === 'number' ? `; errors shown for the closest, branch ${p.reportedBranch}` : '';
}

function listText(values: unknown): string {
  if (!Array.isArray(values)) return jsonPreview(values);
  const shown = values.slice(0, LIST_MAX_VALUES).map((v) => (typeof v === 'string' ? v : jsonPreview(v, 40)));
  const rest = values.length - shown.length;
  return `[${shown.join(',')}${rest > 0 ? `,… (${rest} more)` : ''}]`;
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The value at a JSON pointer, reading own properties only (seller data may carry `__proto__` keys). */
export function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return root;
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      cur = cur[Number(token)];
      continue;
    }
    const d = Object.getOwnPropertyDescriptor(cur, token);
    if (!d || !('value' in d)) return undefined;
    cur = d.value;
  }
  return cur;
}

/**
 * JSON text of `value`, cut to about `max` characters without serializing more than needed
 * (a 1 MiB payload is not stringified in full to show 120 characters of it).
 */
export function jsonPreview(value: unknown, max = FOUND_MAX_CHARS): string {
  if (value === undefined) return 'absent';
  const out: string[] = [];
  let size = 0;
  const budget = max + 1;
  const push = (s: string): boolean => {
    out.push(s);
    size += s.length;
    return size < budget;
  };
  const walk = (v: unknown, depth: number): boolean => {
    if (v === null || typeof v === 'boolean' || typeof v === 'number') return push(JSON.stringify(v) ?? 'null');
    if (typeof v === 'string') return push(JSON.stringify(v.length > budget ? v.slice(0, budget) : v));
    if (typeof v !== 'object' || depth > 50) return push('null');
    if (Array.isArray(v)) {
      if (!push('[')) return false;
      for (let i = 0; i < v.length; i++) {
        if (i > 0 && !push(',')) return false;
        if (!walk(v[i], depth + 1)) return false;
      }
      return push(']');
    }
    if (!push('{')) return false;
    let first = true;
    for (const k of Object.keys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (!d || !('value' in d) || d.value === undefined) continue;
      if (!first && !push(',')) return false;
      first = false;
      if (!push(`${JSON.stringify(k.length > budget ? k.slice(0, budget) : k)}:`)) return false;
      if (!walk(d.value, depth + 1)) return false;
    }
    return push('}');
  };
  walk(value, 0);
  const text = out.join('');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
