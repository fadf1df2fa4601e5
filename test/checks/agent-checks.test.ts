// transport.*, schema.* and capabilities.* on hand-built captures (pure functions; fakes are fine here).
import { describe, expect, test } from 'vitest';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import type { AgentCheck, Check, CheckContext, ExchangeCheck, SchemaError, SchemaService, Verdict } from '../../harness/checks/check.ts';
import adcpTools from '../../harness/checks/capabilities/adcp-tools.ts';
import testController from '../../harness/checks/capabilities/test-controller.ts';
import capsTool from '../../harness/checks/capabilities/tool.ts';
import versions from '../../harness/checks/capabilities/versions.ts';
import adcpResponse from '../../harness/checks/schema/adcp-response.ts';
import legacyWrapper from '../../harness/checks/schema/legacy-wrapper.ts';
import outputConformance from '../../harness/checks/schema/output-conformance.ts';
import outputSchema from '../../harness/checks/schema/output-schema.ts';
import { badSchemaId } from '../../harness/checks/schema/_schema-ids.ts';
import call from '../../harness/checks/transport/call.ts';
import httpResponse from '../../harness/checks/transport/http-response.ts';
import initialize from '../../harness/checks/transport/initialize.ts';
import stdioStdout from '../../harness/checks/transport/stdio-stdout.ts';
import toolNames from '../../harness/checks/transport/tool-names.ts';
import toolsList from '../../harness/checks/transport/tools-list.ts';
import { capture, errorResult, goodError, noAnswer, payload, result, success } from './build.ts';

/** A verdict's status as the engine reports it for a check of fixed level (fail under SHOULD → warn). */
function fold(check: Check, v: Verdict): string {
  if (typeof check.severity !== 'string') throw new Error(`${check.id}: conditional level, not expected here`);
  if (v.status !== 'fail') return v.status;
  return check.severity === 'MUST' ? 'fail' : 'warn';
}
/** Status per subject. */
function statuses(check: AgentCheck, a: AgentCapture, ctx: CheckContext = {}): Record<string, string> {
  return Object.fromEntries(check.judge(a, ctx).map(({ subject, verdict }) => [subject, fold(check, verdict)]));
}
function only(check: AgentCheck, a: AgentCapture, ctx: CheckContext = {}): string {
  const all = Object.values(statuses(check, a, ctx));
  expect(all).toHaveLength(1);
  return all[0]!;
}
/** The single verdict of an agent check. */
function verdictOf(check: AgentCheck, a: AgentCapture, ctx: CheckContext = {}): Verdict {
  const all = check.judge(a, ctx);
  expect(all).toHaveLength(1);
  return all[0]!.verdict;
}
const statusOf = (check: ExchangeCheck, x: Exchange, ctx: CheckContext = {}): string => fold(check, check.judge(x, ctx));
const tools = (...list: unknown[]): AgentCapture['toolsList'] => ({ ok: true, pages: 1, tools: list });
const tool = (name: unknown) => ({ name, inputSchema: { type: 'object' } });
const initFailed: Partial<AgentCapture> = {
  initialize: { ok: false, failure: { kind: 'connect', message: 'spawn ./nope ENOENT' } },
  toolsList: undefined,
};

describe('transport.initialize', () => {
  test('a supported revision with serverInfo passes', () => {
    expect(only(initialize, capture())).toBe('pass');
  });
  test('failure, unsupported revision, missing serverInfo fail', () => {
    expect(only(initialize, capture({ initialize: { ok: false, failure: { kind: 'timeout', message: 't' } } }))).toBe('fail');
    expect(
      only(
        initialize,
        capture({ initialize: { ok: true, protocolVersion: '2099-01-01', serverInfo: { name: 'a', version: '1' }, durationMs: 1 } }),
      ),
    ).toBe('fail');
    expect(
      only(initialize, capture({ initialize: { ok: true, protocolVersion: '2025-06-18', serverInfo: { name: 'a' }, durationMs: 1 } })),
    ).toBe('fail');
  });
});

describe('transport.tools-list', () => {
  test('well formed passes; bad names, bad inputSchema, failure fail', () => {
    expect(only(toolsList, capture())).toBe('pass');
    expect(only(toolsList, capture({ toolsList: tools({ name: 1, inputSchema: { type: 'object' } }) }))).toBe('fail');
    expect(only(toolsList, capture({ toolsList: tools({ name: 'a' }) }))).toBe('fail');
    expect(only(toolsList, capture({ toolsList: tools({ name: 'a', inputSchema: { type: 'array' } }) }))).toBe('fail');
    expect(only(toolsList, capture({ toolsList: { ok: false, failure: { kind: 'protocol', message: 'bad' } } }))).toBe('fail');
  });
  test('untested when initialize failed (transport.initialize owns it)', () => {
    expect(verdictOf(toolsList, capture(initFailed))).toEqual({
      status: 'untested',
      reason: expect.stringContaining('see transport.initialize'),
      blockedBy: { check: 'transport.initialize' },
    });
  });
});

describe('transport.stdio-stdout', () => {
  test('clean stdout passes, junk fails, HTTP is not applicable', () => {
    expect(only(stdioStdout, capture())).toBe('pass');
    expect(only(stdioStdout, capture({ stdio: { stdoutJunk: ['hello'], stderrTail: '' } }))).toBe('fail');
    expect(only(stdioStdout, capture({ agent: { name: 'h', transport: 'http', production: false, sandbox: true } }))).toBe(
      'not-applicable',
    );
  });
  test('a command that never started is untested, not passed; junk before a failed handshake still fails', () => {
    expect(verdictOf(stdioStdout, capture(initFailed))).toEqual({
      status: 'untested',
      reason: expect.stringContaining('see transport.initialize'),
      blockedBy: { check: 'transport.initialize' },
    });
    expect(only(stdioStdout, capture({ ...initFailed, stdio: { stdoutJunk: ['Starting server…'], stderrTail: '' } }))).toBe('fail');
  });
});

describe('transport.tool-names', () => {
  test('legal names pass; a slash or 129 chars warns', () => {
    expect(only(toolNames, capture())).toBe('pass');
    expect(only(toolNames, capture({ toolsList: tools(tool('get/products')) }))).toBe('warn');
    // AdCP 3.x's own polling tool names (required-tasks.mdx) are excepted.
    expect(only(toolNames, capture({ toolsList: tools(tool('tasks/get'), tool('tasks/list')) }))).toBe('pass');
    expect(only(toolNames, capture({ toolsList: tools(tool('a'.repeat(129))) }))).toBe('warn');
  });
  test('untested without a tool list', () => {
    expect(only(toolNames, capture({ toolsList: { ok: false, failure: { kind: 'protocol', message: 'bad' } } }))).toBe('untested');
  });
});

describe('transport.http-response', () => {
  const httpAgent = { name: 'h', transport: 'http' as const, production: false, sandbox: true };
  const http = (
    observations: NonNullable<AgentCapture['http']>['observations'],
    sessionId?: string,
    over: Partial<AgentCapture> = {},
  ): AgentCapture => capture({ agent: httpAgent, stdio: undefined, http: { observations, sessionId }, ...over });
  const init = { method: 'initialize', status: 200, contentType: 'application/json', sessionId: 's1' };
  test('JSON / SSE with a stable session passes; 202 without a body is fine', () => {
    expect(
      only(
        httpResponse,
        http(
          [
            init,
            { method: 'notifications/initialized', status: 202, contentType: null },
            { method: 'tools/call', status: 200, contentType: 'text/event-stream', sessionId: 's1' },
          ],
          's1',
        ),
      ),
    ).toBe('pass');
  });
  test('the session-closing DELETE and notifications owe no JSON body', () => {
    const closing = { method: 'DELETE', status: 200, contentType: null };
    const note = { method: 'notifications/initialized', status: 200, contentType: 'text/plain' };
    expect(only(httpResponse, http([init, note, closing], 's1'))).toBe('pass');
  });
  test('another content type, a changed session id, or 404 on its own session fails', () => {
    expect(only(httpResponse, http([init, { method: 'tools/call', status: 200, contentType: 'text/plain' }], 's1'))).toBe('fail');
    expect(
      only(httpResponse, http([init, { method: 'tools/call', status: 200, contentType: 'application/json', sessionId: 's2' }], 's1')),
    ).toBe('fail');
    expect(only(httpResponse, http([init, { method: 'tools/call', status: 404, contentType: 'application/json' }], 's1'))).toBe('fail');
  });
  test('stdio is not applicable', () => {
    expect(only(httpResponse, capture())).toBe('not-applicable');
  });
  test('a server answering 401 or 404 to initialize is untested here (transport.initialize fails), never passed', () => {
    const failed = {
      initialize: { ok: false as const, failure: { kind: 'http-status' as const, message: 'HTTP 401', httpStatus: 401 } },
      toolsList: undefined,
    };
    for (const status of [401, 404]) {
      const v = verdictOf(httpResponse, http([{ method: 'initialize', status, contentType: 'application/json' }], undefined, failed));
      expect(v).toEqual({
        status: 'untested',
        reason: expect.stringContaining('see transport.initialize'),
        blockedBy: { check: 'transport.initialize' },
      });
    }
    expect(only(httpResponse, http([], undefined, failed))).toBe('untested');
    // A rule broken on the way is still a failure: a 200 initialize answer in text/html.
    expect(only(httpResponse, http([{ method: 'initialize', status: 200, contentType: 'text/html' }], undefined, failed))).toBe('fail');
  });
});

describe('transport.call', () => {
  test('any answer passes; no answer fails naming the kind', () => {
    expect(statusOf(call, result(success()))).toBe('pass');
    const v = call.judge(noAnswer('closed'));
    expect(v).toMatchObject({ status: 'fail', found: expect.stringContaining('closed') });
  });
});

type FakeAnswer = number | { errors: number; omitted?: number } | { skip: string };

// A fake schema service (not Ajv): records what the checks ask and answers as told.
function fakeSchemas(answers: {
  compile?: { ok: true } | { ok: false; message: string };
  output?: FakeAnswer;
  adcp?: FakeAnswer;
}): SchemaService & { asked: unknown[] } {
  const asked: unknown[] = [];
  const errs = (answer: FakeAnswer = 0): { errors: SchemaError[]; omitted?: number } | { skip: string } => {
    if (typeof answer === 'object' && 'skip' in answer) return answer;
    const n = typeof answer === 'number' ? answer : answer.errors;
    const errors = Array.from({ length: n }, (_, i) => ({
      pointer: i === 0 ? '/products' : `/products/${i}/id`,
      keyword: 'type',
      expected: 'type array',
      found: `"v${i}"`,
    }));
    return typeof answer === 'object' && answer.omitted ? { errors, omitted: answer.omitted } : { errors };
  };
  return {
    asked,
    adcpVersion: { version: '3.0', reason: 'test' },
    compileOutputSchema: () => answers.compile ?? { ok: true },
    validateOutput: (_tool, _schema, instance) => (asked.push(instance), errs(answers.output)),
    validateAdcpResponse: (_tool, p) => (asked.push(p), errs(answers.adcp)),
  };
}

describe('schema.output-schema', () => {
  const withOutput = (schema: unknown) =>
    capture({ toolsList: tools({ name: 'get_products', inputSchema: { type: 'object' }, outputSchema: schema }) });
  test('object root that compiles passes; compile failure fails (subject = tool)', () => {
    expect(statuses(outputSchema, withOutput({ type: 'object' }), { schemas: fakeSchemas({}) })).toEqual({ get_products: 'pass' });
    expect(
      statuses(outputSchema, withOutput({ type: 'object' }), { schemas: fakeSchemas({ compile: { ok: false, message: 'strict mode' } }) }),
    ).toEqual({ get_products: 'fail' });
  });
  test('structural findings need no schema service: non-object root, bad $id; without one the compile step is untested', () => {
    expect(only(outputSchema, withOutput({ type: 'array' }))).toBe('fail');
    expect(only(outputSchema, withOutput({ type: 'object', $id: 'my_tool:output' }))).toBe('fail');
    expect(only(outputSchema, withOutput({ type: 'object', $defs: { A: { $id: 'bad id' } } }))).toBe('fail');
    expect(only(outputSchema, withOutput({ type: 'object', $id: 'urn:example:tool-output' }))).toBe('untested');
    expect(only(outputSchema, withOutput({ type: 'object', properties: { $id: { type: 'string' } } }))).toBe('untested');
  });
  test('no outputSchema anywhere is not applicable; no tool list is untested', () => {
    expect(only(outputSchema, capture(), { schemas: fakeSchemas({}) })).toBe('not-applicable');
    expect(only(outputSchema, capture(initFailed), { schemas: fakeSchemas({}) })).toBe('untested');
  });
  test('badSchemaId', () => {
    expect(badSchemaId('my_tool:output')).toMatch(/scheme/);
    expect(badSchemaId('https://example.com/s.json')).toBeNull();
    expect(badSchemaId('my_tool_output')).toBeNull();
    expect(badSchemaId(7)).toMatch(/number/);
  });
});

describe('schema.output-conformance and schema.legacy-wrapper', () => {
  const plain = { type: 'object', properties: { products: { type: 'array' } } };
  const meta = { type: 'object', $ref: '#/$defs/P', $defs: { P: { type: 'object' } } };
  const adv = (schema: unknown) => ({ advertised: { inputSchema: { type: 'object' }, outputSchema: schema } });
  test('validate_root validates the root; errors fail with the pointer under structuredContent, carrying every error', () => {
    const s = fakeSchemas({ output: 2 });
    const v = outputConformance.judge(result(success(), adv(plain)), { schemas: s });
    expect(v).toMatchObject({ status: 'fail', pointer: '/result/structuredContent/products', found: expect.stringContaining('+1 more') });
    expect(v).toMatchObject({
      schemaErrors: [
        { pointer: '/result/structuredContent/products', keyword: 'type' },
        { pointer: '/result/structuredContent/products/1/id', keyword: 'type' },
      ],
    });
    expect(v).not.toHaveProperty('schemaErrorsOmitted');
    expect(s.asked[0]).toEqual(payload());
    expect(statusOf(legacyWrapper, result(success(), adv(meta)))).toBe('pass');
  });
  test('the errors the service left out are counted, and the message still names the first', () => {
    const v = outputConformance.judge(result(success(), adv(plain)), { schemas: fakeSchemas({ output: { errors: 5, omitted: 7 } }) });
    expect(v).toMatchObject({
      status: 'fail',
      pointer: '/result/structuredContent/products',
      expected: 'type array (type)',
      found: '"v0" (+11 more schema errors)',
      schemaErrorsOmitted: 7,
    });
    expect(v.status === 'fail' ? v.schemaErrors : []).toHaveLength(5);
  });
  test('legacy_wrapper validates the inner object and warns', () => {
    const s = fakeSchemas({});
    const x = result(success({ result: payload() }), adv(meta));
    expect(statusOf(outputConformance, x, { schemas: s })).toBe('pass');
    expect(s.asked[0]).toEqual(payload());
    expect(statusOf(legacyWrapper, x)).toBe('warn');
  });
  test('legacy_wrapper errors point inside the wrapper', () => {
    const v = outputConformance.judge(result(success({ result: payload() }), adv(meta)), { schemas: fakeSchemas({ output: 1 }) });
    expect(v).toMatchObject({
      status: 'fail',
      pointer: '/result/structuredContent/result/products',
      schemaErrors: [{ pointer: '/result/structuredContent/result/products' }],
    });
  });
  test('legacy_wrapper under a 2.0–2.3 wrap-shaped schema validates the wrapper against it (inner against properties.result)', () => {
    const wrapShape = {
      type: 'object',
      properties: { result: { $ref: '#/$defs/P' } },
      required: ['result'],
      $defs: { P: { type: 'object' } },
    };
    const s = fakeSchemas({});
    const x = result(success({ result: payload() }), adv(wrapShape));
    expect(statusOf(outputConformance, x, { schemas: s })).toBe('pass');
    expect(s.asked[0]).toEqual({ result: payload() });
    expect(statusOf(legacyWrapper, x)).toBe('warn');
  });
  test('the config override of metaIdTool is honoured', () => {
    const x = result(success({ result: payload() }), adv(plain));
    expect(statusOf(legacyWrapper, x)).toBe('pass'); // detected: not a meta-id tool
    const agent = { name: 'a', transport: 'stdio' as const, production: false, sandbox: true, metaIdTools: { get_products: true } };
    expect(statusOf(legacyWrapper, x, { agent })).toBe('warn');
  });
  test('2025-06-18 validates the root; an unknown revision or no structuredContent: untested; no outputSchema: not applicable', () => {
    const old = result(success(), { ...adv(plain), protocolVersion: '2025-06-18' });
    expect(statusOf(outputConformance, old, { schemas: fakeSchemas({}) })).toBe('pass');
    const rejecting = fakeSchemas({ output: 1 });
    expect(statusOf(outputConformance, old, { schemas: rejecting })).toBe('fail');
    expect(rejecting.asked.at(-1)).toEqual(payload());
    expect(statusOf(legacyWrapper, old)).toBe('not-applicable');
    const future = result(success(), { ...adv(plain), protocolVersion: '2099-01-01' });
    expect(statusOf(outputConformance, future, { schemas: fakeSchemas({}) })).toBe('untested');
    const textOnly = result({ content: [{ type: 'text', text: '{}' }] }, adv(plain));
    expect(statusOf(outputConformance, textOnly, { schemas: fakeSchemas({}) })).toBe('untested');
    expect(statusOf(legacyWrapper, textOnly)).toBe('untested');
    expect(statusOf(outputConformance, result(success()), { schemas: fakeSchemas({}) })).toBe('not-applicable');
    expect(statusOf(legacyWrapper, result(success()))).toBe('not-applicable');
  });
  test('an error result is not applicable; no schema service, or a schema that did not compile, is untested', () => {
    expect(statusOf(outputConformance, result(errorResult(goodError), adv(plain)), { schemas: fakeSchemas({}) })).toBe('not-applicable');
    expect(statusOf(outputConformance, result(success(), adv(plain)))).toBe('untested');
    const v = outputConformance.judge(result(success(), adv(plain)), {
      schemas: fakeSchemas({ output: { skip: 'outputSchema of get_products was not compiled: strict mode' } }),
    });
    expect(v).toEqual({ status: 'untested', reason: expect.stringContaining('was not compiled') });
  });
});

describe('schema.adcp-response', () => {
  test('validates the extracted payload; errors fail with all of them listed; no service is untested', () => {
    const s = fakeSchemas({ adcp: 1 });
    expect(statusOf(adcpResponse, result(success()), { schemas: s })).toBe('fail');
    expect(s.asked[0]).toEqual(payload());
    expect(statusOf(adcpResponse, result(success()), { schemas: fakeSchemas({}) })).toBe('pass');
    expect(adcpResponse.judge(result(success()), {})).toEqual({ status: 'untested', reason: expect.stringContaining('--schemas DIR|URL') });
  });
  test('a failing verdict carries every listed schema error and the omitted count', () => {
    const v = adcpResponse.judge(result(success()), { schemas: fakeSchemas({ adcp: { errors: 3, omitted: 40 } }) });
    expect(v).toMatchObject({
      status: 'fail',
      pointer: '/result/structuredContent/products',
      found: '"v0" (+42 more schema errors)',
      schemaErrors: [
        { pointer: '/result/structuredContent/products' },
        { pointer: '/result/structuredContent/products/1/id' },
        { pointer: '/result/structuredContent/products/2/id' },
      ],
      schemaErrorsOmitted: 40,
    });
  });
  test('a service that ends its list with a synthetic "more" entry: the entry is counted, not listed', () => {
    const more: SchemaError = { pointer: '/', keyword: 'more', expected: 'at most 5 errors listed', found: '12 more errors not shown' };
    const schemas: SchemaService = {
      ...fakeSchemas({}),
      validateAdcpResponse: () => ({
        errors: [{ pointer: '/', keyword: 'required', expected: "required property 'products'", found: '{}' }, more],
      }),
    };
    const v = adcpResponse.judge(result(success()), { schemas });
    expect(v).toMatchObject({
      status: 'fail',
      pointer: '/result/structuredContent',
      found: '{} (+12 more schema errors)',
      schemaErrorsOmitted: 12,
    });
    expect(v.status === 'fail' ? v.schemaErrors : []).toHaveLength(1);
  });
  test('schemas missing for the seller’s version or an unreachable source: untested with the reason and how to supply them', () => {
    const missing = adcpResponse.judge(result(success()), {
      schemas: fakeSchemas({ adcp: { skip: 'https://example.invalid/schemas: fetch failed' } }),
    });
    expect(missing).toEqual({ status: 'untested', reason: expect.stringMatching(/fetch failed.*--schemas DIR\|URL/) });
  });
  test('a tool that is not an AdCP task is not applicable; a call without a payload is untested', () => {
    expect(statusOf(adcpResponse, result(success(), { tool: 'ping' }), { schemas: fakeSchemas({}) })).toBe('not-applicable');
    expect(statusOf(adcpResponse, result({ content: [{ type: 'text', text: 'plain words' }] }), { schemas: fakeSchemas({}) })).toBe(
      'untested',
    );
  });
});

describe('capabilities.*', () => {
  const capsCall = (sc: unknown) => result(success(sc), { tool: 'get_adcp_capabilities' });
  test('capabilities.tool: listed passes, absent warns, no list is untested', () => {
    expect(only(capsTool, capture())).toBe('pass');
    expect(only(capsTool, capture({ toolsList: tools(tool('get_products')) }))).toBe('warn');
    expect(only(capsTool, capture(initFailed))).toBe('untested');
  });
  test('capabilities.versions: adcp.supported_versions passes (with or without major_versions)', () => {
    expect(
      only(
        versions,
        capture({ exchanges: [capsCall({ status: 'completed', adcp: { major_versions: [3], supported_versions: ['3.0', '3.1-beta'] } })] }),
      ),
    ).toBe('pass');
    expect(only(versions, capture({ exchanges: [capsCall({ status: 'completed', adcp: { supported_versions: ['3.1'] } })] }))).toBe('pass');
  });
  test('capabilities.versions (MUST*): a seller judged at AdCP 3.0 declares major_versions; from 3.1 only supported_versions will do', () => {
    const majorOnly = capture({ exchanges: [capsCall({ status: 'completed', adcp: { major_versions: [3] } })] });
    expect(only(versions, majorOnly)).toBe('pass');
    const at31 = { agent: { name: 'unit', transport: 'stdio' as const, production: false, sandbox: true, adcpVersion: '3.1' } };
    const v = versions.judge({ ...majorOnly, ...at31 }, { agent: at31.agent });
    expect(v[0]!.verdict).toMatchObject({
      status: 'fail',
      pointer: '/result/structuredContent/adcp/supported_versions',
      found: expect.stringContaining('major_versions'),
    });
    expect(
      only(versions, capture({ exchanges: [capsCall({ status: 'completed', adcp_version: '3.1', adcp: { major_versions: [3] } })] })),
    ).toBe('fail');
  });
  test('capabilities.versions: none, empty, or malformed fails', () => {
    expect(only(versions, capture({ exchanges: [capsCall({ status: 'completed' })] }))).toBe('fail');
    expect(only(versions, capture({ exchanges: [capsCall({ status: 'completed', adcp: {} })] }))).toBe('fail');
    expect(only(versions, capture({ exchanges: [capsCall({ status: 'completed', adcp: { supported_versions: [] } })] }))).toBe('fail');
    expect(
      only(
        versions,
        capture({ exchanges: [capsCall({ status: 'completed', adcp: { major_versions: [0], supported_versions: ['3.0'] } })] }),
      ),
    ).toBe('fail');
    expect(only(versions, capture({ exchanges: [capsCall({ status: 'completed', adcp: { supported_versions: [3.1] } })] }))).toBe('fail');
  });
  test('capabilities.versions: listed but not called, no answer, or an error result is untested', () => {
    expect(only(versions, capture())).toBe('untested');
    expect(only(versions, capture({ exchanges: [{ ...noAnswer(), tool: 'get_adcp_capabilities' }] }))).toBe('untested');
    expect(only(versions, capture({ exchanges: [result(errorResult(goodError), { tool: 'get_adcp_capabilities' })] }))).toBe('untested');
    expect(only(versions, capture({ ...initFailed, exchanges: [] }))).toBe('untested');
  });
  test('capabilities.versions: an agent that does not list get_adcp_capabilities is not applicable (capabilities.tool owns it)', () => {
    const unlisted = { toolsList: tools(tool('get_products')) };
    expect(verdictOf(versions, capture(unlisted))).toEqual({
      status: 'not-applicable',
      reason: expect.stringContaining('see capabilities.tool'),
    });
    const rejected = result(
      { isError: true, content: [{ type: 'text', text: 'Tool get_adcp_capabilities not found' }] },
      { tool: 'get_adcp_capabilities' },
    );
    expect(only(versions, capture({ ...unlisted, exchanges: [rejected] }))).toBe('not-applicable');
  });
  test('capabilities.test-controller: production agents only', () => {
    const listed = tools(tool('comply_test_controller'));
    expect(only(testController, capture({ toolsList: listed }))).toBe('not-applicable');
    expect(
      only(testController, capture({ agent: { name: 'p', transport: 'stdio', production: true, sandbox: false }, toolsList: listed })),
    ).toBe('fail');
    expect(only(testController, capture({ agent: { name: 'p', transport: 'stdio', production: true, sandbox: false } }))).toBe('pass');
  });
});

describe('capabilities.adcp-tools', () => {
  test('get_adcp_capabilities, or any AdCP task alone, passes', () => {
    expect(only(adcpTools, capture())).toBe('pass');
    expect(only(adcpTools, capture({ toolsList: tools(tool('get_adcp_capabilities')) }))).toBe('pass');
    expect(only(adcpTools, capture({ toolsList: tools(tool('ping'), tool('get_signals')) }))).toBe('pass');
  });
  test('an MCP server with no AdCP tool fails as "not an AdCP agent", naming what it lists', () => {
    const v = verdictOf(adcpTools, capture({ toolsList: tools(tool('ping')) }));
    expect(v).toEqual({
      status: 'fail',
      pointer: '/tools',
      expected: expect.stringContaining('get_adcp_capabilities'),
      found: '1 tool(s): "ping": not an AdCP agent',
    });
    expect(adcpTools.severity).toBe('MUST');
    expect(only(adcpTools, capture({ toolsList: tools() }))).toBe('fail');
    expect(verdictOf(adcpTools, capture({ toolsList: tools() }))).toMatchObject({ found: 'no tools: not an AdCP agent' });
    // Near misses are not AdCP tasks: case and spelling matter to a client that calls by name.
    expect(only(adcpTools, capture({ toolsList: tools(tool('Get_Products'), tool('getProducts'), tool('get_products ')) }))).toBe('fail');
  });
  test('the listed names are bounded', () => {
    const many = Array.from({ length: 50 }, (_, i) => tool(`tool_${i}_${'x'.repeat(200)}`));
    const v = verdictOf(adcpTools, capture({ toolsList: tools(...many) }));
    expect(v).toMatchObject({ status: 'fail', found: expect.stringMatching(/^50 tool\(s\): .*, … \(40 more\): not an AdCP agent$/) });
    expect(v.status === 'fail' ? v.found.length : 0).toBeLessThan(1000);
  });
  test('untested when there is no tool list to judge', () => {
    expect(verdictOf(adcpTools, capture(initFailed))).toEqual({
      status: 'untested',
      reason: expect.stringContaining('see transport.initialize'),
      blockedBy: { check: 'transport.initialize' },
    });
    expect(only(adcpTools, capture({ toolsList: { ok: false, failure: { kind: 'timeout', message: 'tools/list timed out' } } }))).toBe(
      'untested',
    );
  });
});
