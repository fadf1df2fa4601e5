// Runner for this project's check vectors, one file per check area (vectors/checks/<area>.json; a vector
// whose ids span areas sits in the area of its first id):
//   {version:1, description, vectors:[{id, description, capture?, exchange?, schemas?, expected_outcomes}]}
// `capture` is a partial AgentCapture and `exchange` a partial Exchange (appended to the capture's
// exchanges); omitted fields get defaults (a stdio agent, initialize ok at MCP 2025-11-25, a tools/list
// naming each called tool). Multi-call business rules give `capture.exchanges` (each may carry
// `scenario: {name, step}`) and `capture.scenarios` (the ScenarioRecords); `baseCall` indexes exchanges. An exchange may give its outcome as `outcome`, or as shorthand `result` /
// `error` (a JSON-RPC error object). Every check id in expected_outcomes is run and its status compared;
// others are not. Several outcomes of one id (several calls or subjects) fold to the worst:
// fail > warn > untested > pass > not-applicable.
//
// `schemas` (optional) switches on a FAKE schema service for schema.* vectors — a required-keys check,
// clearly not Ajv: `{adcp_version?, adcp_response_required?: {tool: [key…]}, error_codes?: [code…]}`. The real Ajv registry is
// tested with harness/schemas; these vectors only prove how the checks use the service's answers.
//
// `baseline` (optional) hands the baseline judge what the run would: `{expect: {key: reason}, outcomes:
// [{check, tool, status}], applied?}` — the agent's entries (pointers `/agents/0/expect/<key>`) and the
// run's other outcomes.
import type { AgentCapture, Exchange, ExchangeOutcome } from '../record/exchange.ts';
import type { BaselineContext, CheckContext, SchemaError, SchemaService, Status } from './check.ts';
import { checkById } from './catalog.ts';
import { judgeAgent } from './engine.ts';
import { hasOwn, isObject, own } from '../json.ts';

const STATUSES: readonly Status[] = ['pass', 'fail', 'warn', 'not-applicable', 'untested'];
const RANK: Record<Status, number> = { 'not-applicable': 0, pass: 1, untested: 2, warn: 3, fail: 4 };
const DEFAULT_PROTOCOL = '2025-11-25';

const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback);
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

function outcomeOf(p: unknown): ExchangeOutcome {
  if (hasOwn(p, 'outcome')) return own(p, 'outcome') as ExchangeOutcome;
  if (hasOwn(p, 'error')) return { kind: 'jsonrpc-error', error: own(p, 'error') };
  return { kind: 'result', result: own(p, 'result') };
}

/** A full Exchange from a partial one; seller values are referenced, never copied or spread. */
export function fillExchange(p: unknown): Exchange {
  const request = own(p, 'request');
  const tool = str(own(p, 'tool'), str(own(request, 'name'), 'get_products'));
  const args = own(request, 'arguments');
  const x: Exchange = {
    agent: str(own(p, 'agent'), 'vector'),
    tool,
    intent: own(p, 'intent') === 'invalid' ? 'invalid' : 'valid',
    request: { name: tool, arguments: isObject(args) ? args : {} },
    outcome: outcomeOf(p),
    startedAt: '1970-01-01T00:00:00.000Z',
    durationMs: 0,
  };
  const protocol = hasOwn(p, 'protocolVersion') ? own(p, 'protocolVersion') : DEFAULT_PROTOCOL;
  if (typeof protocol === 'string') x.protocolVersion = protocol;
  const advertised = own(p, 'advertised');
  if (isObject(advertised)) x.advertised = advertised as Exchange['advertised'];
  const http = own(p, 'http');
  if (isObject(http)) x.http = http as unknown as Exchange['http'];
  // A step of a business-rule scenario: {name, step}.
  const scenario = own(p, 'scenario');
  const name = own(scenario, 'name');
  const step = own(scenario, 'step');
  if (typeof name === 'string' && typeof step === 'string') x.scenario = { name, step };
  return x;
}

/** A full AgentCapture from a vector's `capture` and `exchange`. */
export function fillCapture(partial: unknown, exchange: unknown): AgentCapture {
  const agentIn = own(partial, 'agent');
  const transport = own(agentIn, 'transport') === 'http' ? 'http' : 'stdio';
  const agent: AgentCapture['agent'] = {
    name: str(own(agentIn, 'name'), 'vector'),
    transport,
    production: bool(own(agentIn, 'production'), false),
    sandbox: bool(own(agentIn, 'sandbox'), true),
  };
  const adcpVersion = own(agentIn, 'adcpVersion');
  if (typeof adcpVersion === 'string') agent.adcpVersion = adcpVersion;
  const metaIdTools = own(agentIn, 'metaIdTools');
  if (isObject(metaIdTools)) agent.metaIdTools = metaIdTools as Record<string, boolean>;

  const listed = own(partial, 'exchanges');
  const exchanges = [...(Array.isArray(listed) ? listed : []), ...(exchange === undefined ? [] : [exchange])].map(fillExchange);

  const initialize = hasOwn(partial, 'initialize')
    ? (own(partial, 'initialize') as AgentCapture['initialize'])
    : { ok: true as const, protocolVersion: DEFAULT_PROTOCOL, serverInfo: { name: 'vector-seller', version: '1.0.0' }, durationMs: 0 };

  const capture: AgentCapture = { agent, initialize, exchanges };
  if (hasOwn(partial, 'toolsList')) capture.toolsList = own(partial, 'toolsList') as AgentCapture['toolsList'];
  else if (initialize.ok) {
    // One listed tool per called tool, carrying the outputSchema the exchange says was advertised.
    const tools: unknown[] = [];
    const seen = new Set<string>();
    for (const x of exchanges) {
      if (seen.has(x.tool)) continue;
      seen.add(x.tool);
      const out = x.advertised?.outputSchema;
      tools.push(
        out === undefined
          ? { name: x.tool, inputSchema: { type: 'object' } }
          : { name: x.tool, inputSchema: { type: 'object' }, outputSchema: out },
      );
    }
    capture.toolsList = { ok: true, tools, pages: 1 };
  }
  if (hasOwn(partial, 'stdio')) capture.stdio = own(partial, 'stdio') as AgentCapture['stdio'];
  else if (transport === 'stdio') capture.stdio = { stdoutJunk: [], stderrTail: '' };
  if (hasOwn(partial, 'http')) capture.http = own(partial, 'http') as AgentCapture['http'];
  else if (transport === 'http') capture.http = { observations: [] };
  if (hasOwn(partial, 'aborted')) capture.aborted = own(partial, 'aborted') as AgentCapture['aborted'];
  const scenarios = own(partial, 'scenarios');
  if (Array.isArray(scenarios)) capture.scenarios = scenarios as AgentCapture['scenarios'];
  // What the harness's webhook receiver saw, and the keys its deliveries were verified with.
  const webhooks = own(partial, 'webhooks');
  if (isObject(webhooks)) capture.webhooks = webhooks as unknown as AgentCapture['webhooks'];
  const webhookKeys = own(agentIn, 'webhookKeys');
  if (isObject(webhookKeys)) agent.webhookKeys = webhookKeys as unknown as AgentCapture['agent']['webhookKeys'];
  // A live capture always records its JSON-RPC violations (none: an empty list); a vector may list some.
  const violations = own(partial, 'protocolViolations');
  capture.protocolViolations = Array.isArray(violations) ? (violations as AgentCapture['protocolViolations']) : [];
  return capture;
}

/**
 * FAKE schema service for vectors (not Ajv): an AdCP response "validates" when it has the required
 * keys the vector lists for the tool; an outputSchema "compiles" when it is an object, and an instance
 * "validates" when it is an object with the schema's top-level `required` keys (and, under
 * `additionalProperties:false`, no key outside `properties`).
 */
export function fakeSchemaService(spec: unknown): SchemaService {
  const required = own(spec, 'adcp_response_required');
  const missing = (instance: unknown, keys: unknown): SchemaError[] =>
    (Array.isArray(keys) ? keys : [])
      .filter((k): k is string => typeof k === 'string' && !hasOwn(instance, k))
      .map((k) => ({ pointer: '', keyword: 'required', expected: `required property '${k}'`, found: 'absent' }));
  const codes = own(spec, 'error_codes');
  const version = str(own(spec, 'adcp_version'), '3.0');
  return {
    adcpVersion: { version, reason: 'vector' },
    // `error_codes` (optional): the standard error-code vocabulary of the release (error.vendor-code).
    ...(Array.isArray(codes)
      ? { errorCodes: () => ({ version, codes: new Set(codes.filter((c): c is string => typeof c === 'string')) }) }
      : {}),
    validateAdcpResponse(tool, payload) {
      if (!hasOwn(required, tool)) return { skip: `no fake schema for ${tool}` };
      return { errors: missing(payload, own(required, tool)) };
    },
    compileOutputSchema(_tool, schema) {
      return isObject(schema) ? { ok: true } : { ok: false, message: 'not a schema object' };
    },
    validateOutput(_tool, schema, instance) {
      if (!isObject(schema)) return { skip: 'outputSchema did not compile' };
      if (!isObject(instance)) return { errors: [{ pointer: '', keyword: 'type', expected: 'object', found: typeof instance }] };
      const errors = missing(instance, own(schema, 'required'));
      const props = own(schema, 'properties');
      if (own(schema, 'additionalProperties') === false && isObject(props)) {
        for (const k of Object.keys(instance)) {
          if (!hasOwn(props, k))
            errors.push({ pointer: '', keyword: 'additionalProperties', expected: 'no additional properties', found: k });
        }
      }
      return { errors };
    },
  };
}

/** A vector's `baseline` as the run would hand it to the baseline judge. */
function baselineOf(spec: unknown): BaselineContext {
  const expect = own(spec, 'expect');
  const listed = own(spec, 'outcomes');
  const pointer = (key: string) => `/agents/0/expect/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return {
    entries: isObject(expect) ? Object.keys(expect).map((key) => ({ key, pointer: pointer(key) })) : [],
    applied: own(spec, 'applied') !== false,
    outcomes: (Array.isArray(listed) ? listed : []).map((o) => ({
      check: str(own(o, 'check'), ''),
      tool: str(own(o, 'tool'), ''),
      status: STATUSES.includes(own(o, 'status') as Status) ? (own(o, 'status') as Status) : 'pass',
    })),
  };
}

/** Run one vector; `diff` lists every id whose folded status differs from the expected one. */
export function runCheckVector(vector: unknown): { ok: boolean; diff: string } {
  const id = str(own(vector, 'id'), '(no id)');
  const expected = own(vector, 'expected_outcomes');
  if (!isObject(expected) || Object.keys(expected).length === 0) return { ok: false, diff: `${id}: expected_outcomes is missing or empty` };
  const problems: string[] = [];
  for (const [checkId, status] of Object.entries(expected)) {
    if (!checkById(checkId)) problems.push(`${id}: unknown check id '${checkId}'`);
    if (!STATUSES.includes(status as Status))
      problems.push(`${id}: '${checkId}' expects '${String(status)}', not one of ${STATUSES.join('|')}`);
  }
  if (problems.length > 0) return { ok: false, diff: problems.join('\n') };

  let capture: AgentCapture;
  try {
    capture = fillCapture(own(vector, 'capture'), hasOwn(vector, 'exchange') ? own(vector, 'exchange') : undefined);
  } catch (err) {
    return { ok: false, diff: `${id}: could not build the capture: ${err instanceof Error ? err.message : String(err)}` };
  }
  const ctx: CheckContext = hasOwn(vector, 'schemas') ? { schemas: fakeSchemaService(own(vector, 'schemas')) } : {};
  if (hasOwn(vector, 'baseline')) ctx.baseline = baselineOf(own(vector, 'baseline'));
  const outcomes = judgeAgent(capture, ctx, (checkId) => hasOwn(expected, checkId));

  for (const [checkId, want] of Object.entries(expected)) {
    const mine = outcomes.filter((o) => o.check === checkId);
    const got = mine.reduce<Status>((worst, o) => (RANK[o.status] > RANK[worst] ? o.status : worst), 'not-applicable');
    if (got !== want) {
      const detail = mine.find((o) => o.status === got)?.message ?? '';
      problems.push(`${id}: ${checkId}: expected ${String(want)}, got ${got}${detail ? ` (${detail})` : ''}`);
    }
  }
  return { ok: problems.length === 0, diff: problems.join('\n') };
}
