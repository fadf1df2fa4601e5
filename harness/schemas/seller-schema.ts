// What a seller's schema may not make the harness do, found by walking it (never by compiling it):
// `$async` (Ajv would return a promise instead of a verdict) and `$ref`s that leave the document (remote
// or `file:` URIs; Ajv is never given a loader, and the harness says so instead of a bare "can't
// resolve"). The same keyword-aware walk lists the patterns that must run on the native (backtracking)
// regex engine, so a deadline can name them, and checks an uncalled tool's schema without compiling it.
import { isObject, own } from '../json.ts';
import { escapePointerToken } from './errors.ts';
import { patternTester } from './linear-regexp.ts';

/** Keywords whose value is one schema. */
const ONE = new Set([
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'additionalItems',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  'items',
]);
/** Keywords whose value is an array of schemas (`items` too in draft-07's tuple form). */
const MANY = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to schemas: the names are data, never keywords. */
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
/** Keywords whose value is data: nothing below them is a schema. */
const DATA = new Set([
  'enum',
  'const',
  'default',
  'examples',
  'example',
  'required',
  'dependentRequired',
  'type',
  '$comment',
  'description',
  'title',
]);
const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'] as const;

/** Where the document itself lives when it declares no absolute `$id` (a name no reference can reach by accident). */
const DOCUMENT = 'https://output-schema.invalid/document.json';

export interface SchemaNode {
  node: Record<string, unknown>;
  /** JSON pointer of the node in the schema ('' for the root). */
  pointer: string;
  /** Base URI in force at the node (after its own `$id`). */
  base: string;
}

function resolve(ref: string, base: string): URL | undefined {
  try {
    return new URL(ref, base);
  } catch {
    return undefined;
  }
}

/**
 * Every subschema (object) of `schema`, with its pointer and base URI: known keywords by their shape,
 * unknown keywords walked as if they held schemas (a `$ref` may point into them). Iterative, bounded by
 * `maxNodes`.
 */
export function subschemas(schema: unknown, maxNodes = 50_000): SchemaNode[] {
  const out: SchemaNode[] = [];
  const stack: Array<{ value: unknown; pointer: string; base: string }> = [{ value: schema, pointer: '', base: DOCUMENT }];
  while (stack.length > 0 && out.length < maxNodes) {
    const { value, pointer, base: parentBase } = stack.pop()!;
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, pointer: `${pointer}/${i}`, base: parentBase }));
      continue;
    }
    if (!isObject(value)) continue;
    const id = own(value, '$id');
    let base = parentBase;
    if (typeof id === 'string' && !id.startsWith('#')) base = resolve(id, parentBase)?.href ?? parentBase;
    out.push({ node: value, pointer, base });
    for (const key of Object.keys(value)) {
      const child = own(value, key);
      const at = `${pointer}/${escapePointerToken(key)}`;
      if (DATA.has(key)) continue;
      if (MAPS.has(key)) {
        if (isObject(child))
          for (const name of Object.keys(child))
            stack.push({ value: own(child, name), pointer: `${at}/${escapePointerToken(name)}`, base });
      } else if (ONE.has(key) || MANY.has(key) || (typeof child === 'object' && child !== null)) {
        stack.push({ value: child, pointer: at, base });
      }
    }
  }
  return out;
}

/** The resources a reference may reach: the document and every embedded `$id`, without fragments. */
function resourcesOf(nodes: readonly SchemaNode[]): Set<string> {
  const ids = new Set<string>([DOCUMENT]);
  for (const { node, base } of nodes) {
    if (typeof own(node, '$id') === 'string') ids.add(base.replace(/#.*$/, ''));
  }
  return ids;
}

export interface Refusal {
  /** JSON pointer inside the schema. */
  pointer: string;
  message: string;
}

/** The first thing in a seller schema the harness refuses to compile, or undefined. */
export function refusalIn(schema: unknown): Refusal | undefined {
  const nodes = subschemas(schema);
  for (const { node, pointer } of nodes) {
    if (Object.prototype.hasOwnProperty.call(node, '$async') && own(node, '$async') !== false) {
      return {
        pointer: `${pointer}/$async`,
        message: `outputSchema uses "$async" at ${pointer || '/'}: an asynchronous schema makes the validator return a promise instead of a verdict; the harness refuses it (remove "$async")`,
      };
    }
  }
  const resources = resourcesOf(nodes);
  for (const { node, pointer, base } of nodes) {
    for (const keyword of REF_KEYWORDS) {
      const ref = own(node, keyword);
      if (typeof ref !== 'string' || ref.startsWith('#')) continue;
      const target = resolve(ref, base);
      if (target && resources.has(target.href.replace(/#.*$/, ''))) continue;
      const kind =
        target?.protocol === 'file:'
          ? 'a file: reference'
          : target && /^https?:$/.test(target.protocol)
            ? 'a remote reference'
            : 'a reference outside the schema';
      return {
        pointer: `${pointer}/${keyword}`,
        message: `outputSchema ${keyword} ${JSON.stringify(ref.slice(0, 200))} at ${pointer || '/'} is ${kind}: the harness never fetches or reads referenced schemas; put the definition under "$defs" and use "#/$defs/…"`,
      };
    }
  }
  return undefined;
}

export interface NativePattern {
  pattern: string;
  pointer: string;
}

/** Patterns (and patternProperties names) of `schema` that run on the native, backtracking engine. */
export function nativePatternsIn(schema: unknown): NativePattern[] {
  const out: NativePattern[] = [];
  const consider = (pattern: string, pointer: string): void => {
    try {
      if (patternTester(pattern).engine === 'native') out.push({ pattern, pointer });
    } catch {
      /* a syntax error is the compiler's finding */
    }
  };
  for (const { node, pointer } of subschemas(schema)) {
    const pattern = own(node, 'pattern');
    if (typeof pattern === 'string') consider(pattern, `${pointer}/pattern`);
    const named = own(node, 'patternProperties');
    if (isObject(named)) for (const key of Object.keys(named)) consider(key, `${pointer}/patternProperties/${escapePointerToken(key)}`);
  }
  return out;
}

/** One line naming the native-engine patterns, for progress and deadline messages. */
export function describePatterns(patterns: readonly NativePattern[]): string {
  if (patterns.length === 0) return '';
  const shown = patterns.slice(0, 3).map((p) => `pattern ${JSON.stringify(p.pattern.slice(0, 80))} at ${p.pointer}`);
  const more = patterns.length > 3 ? ` and ${patterns.length - 3} more` : '';
  return `${shown.join(', ')}${more}`;
}

/**
 * Problems Ajv would report when compiling, found without generating code: a pattern that is not an
 * ECMA-262 regex, a `#/…` reference that points at nothing. Used for tools that were never called.
 */
export function uncompiledProblem(schema: unknown): Refusal | undefined {
  const nodes = subschemas(schema);
  const byBase = new Map<string, Record<string, unknown>>();
  for (const { node, base } of nodes) if (typeof own(node, '$id') === 'string') byBase.set(base.replace(/#.*$/, ''), node);
  for (const { node, pointer, base } of nodes) {
    const pattern = own(node, 'pattern');
    if (typeof pattern === 'string') {
      try {
        new RegExp(pattern, 'u');
      } catch (e) {
        return {
          pointer: `${pointer}/pattern`,
          message: `outputSchema pattern at ${pointer}/pattern is not an ECMA-262 regular expression: ${e instanceof Error ? e.message : String(e)}`,
        };
      }
    }
    const named = own(node, 'patternProperties');
    if (isObject(named)) {
      for (const key of Object.keys(named)) {
        try {
          new RegExp(key, 'u');
        } catch (e) {
          return {
            pointer: `${pointer}/patternProperties`,
            message: `outputSchema patternProperties name ${JSON.stringify(key.slice(0, 80))} at ${pointer} is not an ECMA-262 regular expression: ${e instanceof Error ? e.message : String(e)}`,
          };
        }
      }
    }
    for (const keyword of REF_KEYWORDS) {
      const ref = own(node, keyword);
      if (typeof ref !== 'string') continue;
      const target = resolve(ref, base);
      if (!target || !target.hash.startsWith('#/')) continue; // anchors and whole resources: Ajv resolves them when the tool is called
      const resource = target.href.replace(/#.*$/, '');
      const root = resource === DOCUMENT ? schema : byBase.get(resource);
      if (root !== undefined && valueAtPointer(root, decodeURIComponent(target.hash.slice(1))) === undefined) {
        return {
          pointer: `${pointer}/${keyword}`,
          message: `outputSchema ${keyword} ${JSON.stringify(ref.slice(0, 200))} at ${pointer || '/'} points at nothing: can't resolve reference`,
        };
      }
    }
  }
  return undefined;
}

function valueAtPointer(root: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return root;
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      cur = cur[Number(token)];
    } else if (isObject(cur)) {
      cur = own(cur, token);
    } else {
      return undefined;
    }
  }
  return cur;
}
