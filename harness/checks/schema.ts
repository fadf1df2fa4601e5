// schema.* — tool outputSchemas (MCP) and the official AdCP response schemas. Ajv lives behind
// CheckContext.schemas (harness/schemas); these checks add only cheap structural rules of their own.
import type { Exchange } from '../capture/exchange.ts';
import { fail, pass, skip, type AgentCheck, type AgentVerdict, type CheckContext, type ExchangeCheck, type SchemaError, type Verdict } from './check.ts';
import { layerInstance } from '../extract/layer.ts';
import { describeType, hasOwn, isObject, MAX_DEPTH, own, preview, token } from './json.ts';
import { outputSchemaOf, layerTarget, payloadOrVerdict, successResult } from './views.ts';

const SEED_004 = 'MCP TypeScript SDK 2.4.0 structuredContent note (seed 004)';

/** Every `$id` in a schema (explicit stack, depth bound) with its pointer. */
function idsIn(schema: unknown, base: string): Array<{ pointer: string; id: unknown }> {
  const out: Array<{ pointer: string; id: unknown }> = [];
  const stack: Array<[unknown, string, number]> = [[schema, base, 0]];
  while (stack.length > 0 && out.length < 1000) {
    const [node, at, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object' || depth > MAX_DEPTH) continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) stack.push([node[i], `${at}/${i}`, depth + 1]);
      continue;
    }
    for (const k of Object.keys(node)) {
      const v = own(node, k);
      // `properties` maps names to schemas: a property called "$id" is not an id.
      if (k === '$id' && !at.endsWith('/properties')) out.push({ pointer: `${at}/$id`, id: v });
      else stack.push([v, `${at}/${token(k)}`, depth + 1]);
    }
  }
  return out;
}

/**
 * Why a `$id` is not a URI Ajv accepts, or null. A colon before any `/ ? #` makes the prefix a URI
 * scheme, which RFC 3986 restricts to `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` — so
 * `my_tool:output` is rejected (fast-uri ≥ 3.1.6, seed 004).
 */
export function badSchemaId(id: unknown): string | null {
  if (typeof id !== 'string') return `$id is ${describeType(id)}, not a string`;
  if (/\s/.test(id)) return 'whitespace in $id';
  const scheme = /^([^:/?#]*):/.exec(id);
  if (scheme && !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme[1]!)) return `"${scheme[1]}:" is not a legal URI scheme`;
  return null;
}

/** Structural problems of one outputSchema, before any compiler sees it. */
function structuralProblem(schema: unknown, base: string): { pointer: string; expected: string; found: string } | null {
  if (!isObject(schema)) return { pointer: base, expected: 'a JSON Schema object', found: `${describeType(schema)} ${preview(schema)}` };
  const type = own(schema, 'type');
  if (type !== 'object') return { pointer: `${base}/type`, expected: 'root type "object" (MCP)', found: type === undefined ? 'absent' : preview(type) };
  for (const { pointer, id } of idsIn(schema, base)) {
    const why = badSchemaId(id);
    if (why) return { pointer, expected: 'a $id that is a valid URI (reference)', found: `${preview(id)}: ${why}` };
  }
  return null;
}

export const outputSchema: AgentCheck = {
  id: 'schema.output-schema',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title: 'each declared `outputSchema` compiles under its dialect, has root type `object`, and every `$id` is a URI Ajv accepts',
  spec: `MCP 2025-06-18 · Tools › Output schema (JSON Schema, root type object; 2020-12 unless $schema says otherwise); ${SEED_004} · $id`,
  run(a, ctx): AgentVerdict[] {
    const list = a.toolsList;
    if (!list) return [{ subject: 'tools/list', verdict: skip('no tools/list: see transport.initialize') }];
    if (!list.ok) return [{ subject: 'tools/list', verdict: skip('tools/list failed: see transport.tools-list') }];
    const out: AgentVerdict[] = [];
    list.tools.forEach((tool, i) => {
      if (!hasOwn(tool, 'outputSchema')) return;
      const name = own(tool, 'name');
      const subject = typeof name === 'string' ? name : `tools/${i}`;
      const schema = own(tool, 'outputSchema');
      const problem = structuralProblem(schema, `/tools/${i}/outputSchema`);
      if (problem) return out.push({ subject, verdict: fail(problem.pointer, problem.expected, problem.found) });
      if (!ctx.schemas) return out.push({ subject, verdict: skip('no schema service: checked structurally only (root type, $id)') });
      const compiled = ctx.schemas.compileOutputSchema(subject, schema);
      out.push({ subject, verdict: compiled.ok ? pass() : fail(`/tools/${i}/outputSchema`, 'a schema that compiles under its dialect', compiled.message) });
    });
    if (out.length === 0) return [{ subject: 'tools/list', verdict: skip('no tool declares an outputSchema') }];
    return out;
  },
};

/** The first schema error as the verdict; the rest are counted (the service lists at most a handful and
 *  ends with a synthetic `more` entry saying how many it left out). */
function schemaFail(base: string, errors: readonly SchemaError[]): Verdict {
  const listed = errors.filter((e) => e.keyword !== 'more');
  const omitted = errors.find((e) => e.keyword === 'more');
  const first = listed[0] ?? errors[0];
  if (!first) return pass();
  const others = [listed.length > 1 ? `+${listed.length - 1} more` : '', omitted ? omitted.found : ''].filter(Boolean);
  const more = others.length > 0 ? ` (${others.join('; ')})` : '';
  // The service points at the instance root with '/', which must not leave a trailing slash on the base.
  const pointer = first.pointer === '/' ? base : `${base}${first.pointer}`;
  return fail(pointer, `${first.expected} (${first.keyword})`, `${first.found}${more}`);
}

/** The layer target of a success with an outputSchema, or the reason the layer checks do not apply. */
function layerOf(
  x: Exchange,
  ctx: CheckContext,
): { skip: string } | { target: 'legacy_wrapper' | 'validate_root'; result: Record<string, unknown>; schema: unknown } {
  const s = successResult(x);
  if ('skip' in s) return { skip: s.skip };
  const schema = outputSchemaOf(x);
  if (schema === undefined) return { skip: `'${String(x.tool)}' declares no outputSchema` };
  const target = layerTarget(x, ctx, s.result);
  if (target === 'schema') return { skip: `audit record outside the audited set (tool ${preview(x.tool)}, protocol ${preview(x.protocolVersion)}): seed 004 branch 'schema'` };
  if (target === 'missing') return { skip: 'no structuredContent object: see envelope.structured-content' };
  return { target, result: s.result, schema };
}

/** The SDK 2.0–2.3 output schema shape: the payload declared under a required `result` property. */
export function describesResultWrapper(schema: unknown): boolean {
  const required = own(schema, 'required');
  return Array.isArray(required) && required.includes('result') && isObject(own(own(schema, 'properties'), 'result'));
}

export const outputConformance: ExchangeCheck = {
  id: 'schema.output-conformance',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`structuredContent` validates against the tool\'s `outputSchema` at the layer seed 004 chooses',
  spec: `MCP 2025-06-18 · Tools › Output schema (structured results MUST conform); ${SEED_004} · structured_content_target`,
  run(x, ctx) {
    const layer = layerOf(x, ctx);
    if ('skip' in layer) return skip(layer.skip);
    if (!ctx.schemas) return skip('no schema service');
    // legacy_wrapper: the inner object is what the schema describes — unless the advertised schema is
    // itself the 2.0–2.3 wrap ({properties:{result:…}, required:["result"]}); then the wrapper is
    // validated against it, which validates the inner object against `properties.result`.
    const wholeWrapper = layer.target === 'legacy_wrapper' && describesResultWrapper(layer.schema);
    const instance = wholeWrapper ? layerInstance('validate_root', layer.result) : layerInstance(layer.target, layer.result);
    const verdict = ctx.schemas.validateOutput(x.tool, layer.schema, instance);
    if ('skip' in verdict) return skip(verdict.skip);
    const base = layer.target === 'legacy_wrapper' && !wholeWrapper ? '/result/structuredContent/result' : '/result/structuredContent';
    return schemaFail(base, verdict.errors);
  },
};

export const legacyWrapper: ExchangeCheck = {
  id: 'schema.legacy-wrapper',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: 'the `legacy_wrapper` branch was not needed (a server still wrapping in `result` is stale or not restarted)',
  spec: `${SEED_004} · legacy_wrapper vs validate_root`,
  run(x, ctx) {
    const layer = layerOf(x, ctx);
    if ('skip' in layer) return skip(layer.skip);
    if (layer.target === 'validate_root') return pass();
    return fail('/result/structuredContent', 'the payload at the structuredContent root (2.4.0, protocol 2025-11-25)', 'a lone {"result":{…}} wrapper (legacy_wrapper)');
  },
};

export const adcpResponse: ExchangeCheck = {
  id: 'schema.adcp-response',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'the extracted payload validates against the official AdCP response schema of that task',
  spec: 'AdCP response schemas (<task>-response.json, draft-07) at the version the seller serves',
  run(x, ctx) {
    const p = payloadOrVerdict(x);
    if ('skip' in p) return skip(p.skip);
    if (!ctx.schemas) return skip('no schema service');
    const verdict = ctx.schemas.validateAdcpResponse(x.tool, p.data);
    if ('skip' in verdict) return skip(verdict.skip);
    return schemaFail(p.pointer, verdict.errors);
  },
};

export const schemaAgentChecks: readonly AgentCheck[] = [outputSchema];
export const schemaExchangeChecks: readonly ExchangeCheck[] = [outputConformance, legacyWrapper, adcpResponse];
