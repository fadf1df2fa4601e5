// transport.*, schema.* and capabilities.* on hand-built captures (pure functions; fakes are fine here).
import { describe, expect, test } from 'vitest';
import type { AgentCapture } from '../../harness/capture/exchange.ts';
import type { AgentCheck, CheckContext, SchemaService } from '../../harness/checks/check.ts';
import * as caps from '../../harness/checks/capabilities.ts';
import * as schema from '../../harness/checks/schema.ts';
import * as transport from '../../harness/checks/transport.ts';
import { capture, fold, noAnswer, payload, result, statusOf, success } from './build.ts';

/** Status per subject. */
function statuses(check: AgentCheck, a: AgentCapture, ctx: CheckContext = {}): Record<string, string> {
  return Object.fromEntries(check.run(a, ctx).map(({ subject, verdict }) => [subject, fold(check.severity, verdict)]));
}
const only = (check: AgentCheck, a: AgentCapture, ctx: CheckContext = {}): string => {
  const all = Object.values(statuses(check, a, ctx));
  expect(all).toHaveLength(1);
  return all[0]!;
};
const tools = (...list: unknown[]): AgentCapture['toolsList'] => ({ ok: true, pages: 1, tools: list });

describe('transport.initialize', () => {
  test('a supported revision with serverInfo passes', () => {
    expect(only(transport.initialize, capture())).toBe('pass');
  });
  test('failure, unsupported revision, missing serverInfo fail', () => {
    expect(only(transport.initialize, capture({ initialize: { ok: false, failure: { kind: 'timeout', message: 't' } } }))).toBe('fail');
    expect(only(transport.initialize, capture({ initialize: { ok: true, protocolVersion: '2099-01-01', serverInfo: { name: 'a', version: '1' }, durationMs: 1 } }))).toBe('fail');
    expect(only(transport.initialize, capture({ initialize: { ok: true, protocolVersion: '2025-06-18', serverInfo: { name: 'a' }, durationMs: 1 } }))).toBe('fail');
  });
});

describe('transport.tools-list', () => {
  test('well formed passes; bad names, bad inputSchema, failure fail', () => {
    expect(only(transport.toolsList, capture())).toBe('pass');
    expect(only(transport.toolsList, capture({ toolsList: tools({ name: 1, inputSchema: { type: 'object' } }) }))).toBe('fail');
    expect(only(transport.toolsList, capture({ toolsList: tools({ name: 'a' }) }))).toBe('fail');
    expect(only(transport.toolsList, capture({ toolsList: tools({ name: 'a', inputSchema: { type: 'array' } }) }))).toBe('fail');
    expect(only(transport.toolsList, capture({ toolsList: { ok: false, failure: { kind: 'protocol', message: 'bad' } } }))).toBe('fail');
  });
  test('skips when initialize failed', () => {
    expect(only(transport.toolsList, capture({ initialize: { ok: false, failure: { kind: 'connect', message: 'refused' } }, toolsList: undefined }))).toBe('skip');
  });
});

describe('transport.stdio-stdout', () => {
  test('clean stdout passes, junk fails, HTTP skips', () => {
    expect(only(transport.stdioStdout, capture())).toBe('pass');
    expect(only(transport.stdioStdout, capture({ stdio: { stdoutJunk: ['hello'], stderrTail: '' } }))).toBe('fail');
    expect(only(transport.stdioStdout, capture({ agent: { name: 'h', transport: 'http', production: false, sandbox: true } }))).toBe('skip');
  });
});

describe('transport.tool-names', () => {
  test('legal names pass; a slash or 129 chars warns', () => {
    expect(only(transport.toolNames, capture())).toBe('pass');
    expect(only(transport.toolNames, capture({ toolsList: tools({ name: 'tasks/get', inputSchema: { type: 'object' } }) }))).toBe('warn');
    expect(only(transport.toolNames, capture({ toolsList: tools({ name: 'a'.repeat(129), inputSchema: { type: 'object' } }) }))).toBe('warn');
  });
});

describe('transport.http-response', () => {
  const http = (observations: NonNullable<AgentCapture['http']>['observations'], sessionId?: string): AgentCapture =>
    capture({ agent: { name: 'h', transport: 'http', production: false, sandbox: true }, stdio: undefined, http: { observations, sessionId } });
  const init = { method: 'initialize', status: 200, contentType: 'application/json', sessionId: 's1' };
  test('JSON / SSE with a stable session passes; 202 without a body is fine', () => {
    expect(only(transport.httpResponse, http([init, { method: 'notifications/initialized', status: 202, contentType: null }, { method: 'tools/call', status: 200, contentType: 'text/event-stream', sessionId: 's1' }], 's1'))).toBe('pass');
  });
  test('the session-closing DELETE and notifications owe no JSON body', () => {
    const closing = { method: 'DELETE', status: 200, contentType: null };
    const note = { method: 'notifications/initialized', status: 200, contentType: 'text/plain' };
    expect(only(transport.httpResponse, http([init, note, closing], 's1'))).toBe('pass');
  });
  test('another content type, a changed session id, or 404 on its own session fails', () => {
    expect(only(transport.httpResponse, http([init, { method: 'tools/call', status: 200, contentType: 'text/plain' }], 's1'))).toBe('fail');
    expect(only(transport.httpResponse, http([init, { method: 'tools/call', status: 200, contentType: 'application/json', sessionId: 's2' }], 's1'))).toBe('fail');
    expect(only(transport.httpResponse, http([init, { method: 'tools/call', status: 404, contentType: 'application/json' }], 's1'))).toBe('fail');
  });
  test('stdio skips', () => {
    expect(only(transport.httpResponse, capture())).toBe('skip');
  });
});

describe('transport.call', () => {
  test('any answer passes; no answer fails naming the kind', () => {
    expect(statusOf(transport.call, result(success()))).toBe('pass');
    const v = transport.call.run(noAnswer('closed'), {});
    expect(v).toMatchObject({ status: 'fail', found: expect.stringContaining('closed') });
  });
});

// A fake schema service (not Ajv): records what the checks ask and answers as told.
function fakeSchemas(answers: { compile?: { ok: true } | { ok: false; message: string }; output?: number; adcp?: number }): SchemaService & { asked: unknown[] } {
  const asked: unknown[] = [];
  const errs = (n = 0) => ({ errors: Array.from({ length: n }, () => ({ pointer: '/products', keyword: 'type', expected: 'array', found: 'string' })) });
  return {
    asked,
    adcpVersion: { version: '3.0', reason: 'test' },
    compileOutputSchema: () => answers.compile ?? { ok: true },
    validateOutput: (_tool, _schema, instance) => (asked.push(instance), errs(answers.output)),
    validateAdcpResponse: (_tool, p) => (asked.push(p), errs(answers.adcp)),
  };
}

describe('schema.output-schema', () => {
  const withOutput = (outputSchema: unknown) => capture({ toolsList: tools({ name: 'get_products', inputSchema: { type: 'object' }, outputSchema }) });
  test('object root that compiles passes; compile failure fails (subject = tool)', () => {
    expect(statuses(schema.outputSchema, withOutput({ type: 'object' }), { schemas: fakeSchemas({}) })).toEqual({ get_products: 'pass' });
    expect(statuses(schema.outputSchema, withOutput({ type: 'object' }), { schemas: fakeSchemas({ compile: { ok: false, message: 'strict mode' } }) })).toEqual({ get_products: 'fail' });
  });
  test('structural findings need no schema service: non-object root, bad $id', () => {
    expect(only(schema.outputSchema, withOutput({ type: 'array' }))).toBe('fail');
    expect(only(schema.outputSchema, withOutput({ type: 'object', $id: 'my_tool:output' }))).toBe('fail');
    expect(only(schema.outputSchema, withOutput({ type: 'object', $defs: { A: { $id: 'bad id' } } }))).toBe('fail');
    expect(only(schema.outputSchema, withOutput({ type: 'object', $id: 'urn:example:tool-output' }))).toBe('skip');
    expect(only(schema.outputSchema, withOutput({ type: 'object', properties: { $id: { type: 'string' } } }))).toBe('skip');
  });
  test('no outputSchema anywhere skips', () => {
    expect(only(schema.outputSchema, capture(), { schemas: fakeSchemas({}) })).toBe('skip');
  });
  test('badSchemaId', () => {
    expect(schema.badSchemaId('my_tool:output')).toMatch(/scheme/);
    expect(schema.badSchemaId('https://example.com/s.json')).toBeNull();
    expect(schema.badSchemaId('my_tool_output')).toBeNull();
    expect(schema.badSchemaId(7)).toMatch(/number/);
  });
});

describe('schema.output-conformance and schema.legacy-wrapper', () => {
  const plain = { type: 'object', properties: { products: { type: 'array' } } };
  const meta = { type: 'object', $ref: '#/$defs/P', $defs: { P: { type: 'object' } } };
  const adv = (outputSchema: unknown) => ({ advertised: { inputSchema: { type: 'object' }, outputSchema } });
  test('validate_root validates the root; errors fail with the pointer under structuredContent', () => {
    const s = fakeSchemas({ output: 2 });
    const v = schema.outputConformance.run(result(success(), adv(plain)), { schemas: s });
    expect(v).toMatchObject({ status: 'fail', pointer: '/result/structuredContent/products', found: expect.stringContaining('+1 more') });
    expect(s.asked[0]).toEqual(payload());
    expect(statusOf(schema.legacyWrapper, result(success(), adv(meta)))).toBe('pass');
  });
  test('legacy_wrapper validates the inner object and warns', () => {
    const s = fakeSchemas({});
    const x = result(success({ result: payload() }), adv(meta));
    expect(statusOf(schema.outputConformance, x, { schemas: s })).toBe('pass');
    expect(s.asked[0]).toEqual(payload());
    expect(statusOf(schema.legacyWrapper, x)).toBe('warn');
  });
  test('legacy_wrapper under a 2.0–2.3 wrap-shaped schema validates the wrapper against it (inner against properties.result)', () => {
    const wrapShape = { type: 'object', properties: { result: { $ref: '#/$defs/P' } }, required: ['result'], $defs: { P: { type: 'object' } } };
    const s = fakeSchemas({});
    const x = result(success({ result: payload() }), adv(wrapShape));
    expect(statusOf(schema.outputConformance, x, { schemas: s })).toBe('pass');
    expect(s.asked[0]).toEqual({ result: payload() });
    expect(statusOf(schema.legacyWrapper, x)).toBe('warn');
  });
  test('the config override of metaIdTool is honoured', () => {
    const x = result(success({ result: payload() }), adv(plain));
    expect(statusOf(schema.legacyWrapper, x)).toBe('pass'); // detected: not a meta-id tool
    const agent = { name: 'a', transport: 'stdio' as const, production: false, sandbox: true, metaIdTools: { get_products: true } };
    expect(statusOf(schema.legacyWrapper, x, { agent })).toBe('warn');
  });
  test('schema / missing branches and tools without outputSchema skip', () => {
    expect(statusOf(schema.outputConformance, result(success(), { ...adv(plain), protocolVersion: '2025-06-18' }), { schemas: fakeSchemas({}) })).toBe('skip');
    expect(statusOf(schema.outputConformance, result({ content: [{ type: 'text', text: '{}' }] }, adv(plain)), { schemas: fakeSchemas({}) })).toBe('skip');
    expect(statusOf(schema.outputConformance, result(success()), { schemas: fakeSchemas({}) })).toBe('skip');
  });
});

describe('schema.adcp-response', () => {
  test('validates the extracted payload; errors fail; no service skips', () => {
    const s = fakeSchemas({ adcp: 1 });
    expect(statusOf(schema.adcpResponse, result(success()), { schemas: s })).toBe('fail');
    expect(s.asked[0]).toEqual(payload());
    expect(statusOf(schema.adcpResponse, result(success()), { schemas: fakeSchemas({}) })).toBe('pass');
    expect(statusOf(schema.adcpResponse, result(success()))).toBe('skip');
  });
});

describe('capabilities.*', () => {
  const capsCall = (sc: unknown) => result(success(sc), { tool: 'get_adcp_capabilities' });
  test('capabilities.tool: listed passes, absent warns', () => {
    expect(only(caps.tool, capture())).toBe('pass');
    expect(only(caps.tool, capture({ toolsList: tools({ name: 'get_products', inputSchema: { type: 'object' } }) }))).toBe('warn');
  });
  test('capabilities.versions: adcp.supported_versions passes (with or without major_versions)', () => {
    expect(only(caps.versions, capture({ exchanges: [capsCall({ status: 'completed', adcp: { major_versions: [3], supported_versions: ['3.0', '3.1-beta'] } })] }))).toBe('pass');
    expect(only(caps.versions, capture({ exchanges: [capsCall({ status: 'completed', adcp: { supported_versions: ['3.1'] } })] }))).toBe('pass');
  });
  test('capabilities.versions: only major_versions, none, empty, or malformed fails', () => {
    const v = caps.versions.run(capture({ exchanges: [capsCall({ status: 'completed', adcp: { major_versions: [3] } })] }), {});
    expect(v[0]!.verdict).toMatchObject({ status: 'fail', pointer: '/result/structuredContent/adcp/supported_versions', found: expect.stringContaining('major_versions') });
    expect(only(caps.versions, capture({ exchanges: [capsCall({ status: 'completed' })] }))).toBe('fail');
    expect(only(caps.versions, capture({ exchanges: [capsCall({ status: 'completed', adcp: {} })] }))).toBe('fail');
    expect(only(caps.versions, capture({ exchanges: [capsCall({ status: 'completed', adcp: { supported_versions: [] } })] }))).toBe('fail');
    expect(only(caps.versions, capture({ exchanges: [capsCall({ status: 'completed', adcp: { major_versions: [0], supported_versions: ['3.0'] } })] }))).toBe('fail');
    expect(only(caps.versions, capture({ exchanges: [capsCall({ status: 'completed', adcp: { supported_versions: [3.1] } })] }))).toBe('fail');
  });
  test('capabilities.versions: not called, no answer or an error skips', () => {
    expect(only(caps.versions, capture())).toBe('skip');
    expect(only(caps.versions, capture({ exchanges: [{ ...noAnswer(), tool: 'get_adcp_capabilities' }] }))).toBe('skip');
  });
  test('capabilities.test-controller: production agents only', () => {
    const listed = tools({ name: 'comply_test_controller', inputSchema: { type: 'object' } });
    expect(only(caps.testController, capture({ toolsList: listed }))).toBe('skip');
    expect(only(caps.testController, capture({ agent: { name: 'p', transport: 'stdio', production: true, sandbox: false }, toolsList: listed }))).toBe('fail');
    expect(only(caps.testController, capture({ agent: { name: 'p', transport: 'stdio', production: true, sandbox: false } }))).toBe('pass');
  });
});
