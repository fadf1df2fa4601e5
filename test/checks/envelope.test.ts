import { describe, expect, test } from 'vitest';
import * as env from '../../harness/checks/envelope.ts';
import { findReservedKey } from '../../harness/checks/envelope.ts';
import { errorResult, goodError, noAnswer, payload, result, rpcError, statusOf, success } from './build.ts';

describe('envelope.is-error-type', () => {
  test('absent or boolean passes; a string fails', () => {
    expect(statusOf(env.isErrorType, result(success()))).toBe('pass');
    expect(statusOf(env.isErrorType, result(errorResult(goodError)))).toBe('pass');
    expect(statusOf(env.isErrorType, result(success(payload(), { isError: 'true' })))).toBe('fail');
    expect(statusOf(env.isErrorType, result(success(payload(), { isError: null })))).toBe('fail');
  });
  test('skips JSON-RPC errors and no-answer calls', () => {
    expect(statusOf(env.isErrorType, rpcError({ code: -32602, message: 'x' }))).toBe('skip');
    expect(statusOf(env.isErrorType, noAnswer())).toBe('skip');
  });
});

describe('envelope.content-blocks', () => {
  test('well-formed blocks of every type pass', () => {
    const content = [
      { type: 'text', text: 'hi' },
      { type: 'image', data: 'AA==', mimeType: 'image/png' },
      { type: 'audio', data: 'AA==', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'https://x/y', name: 'y' },
      { type: 'resource', resource: { uri: 'file:///a', text: 'a' } },
    ];
    expect(statusOf(env.contentBlocks, result({ content }))).toBe('pass');
  });
  test('MCP 2025-11-25 optional fields pass: annotations, _meta, resource_link metadata, blob resources', () => {
    const annotations = { audience: ['user', 'assistant'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' };
    const content = [
      { type: 'text', text: 'Found 3 products.', annotations, _meta: { 'io.example/trace': 'x' } },
      { type: 'image', data: 'AA==', mimeType: 'image/png', annotations: { priority: 1 } },
      { type: 'audio', data: 'AA==', mimeType: 'audio/wav', _meta: {} },
      { type: 'resource_link', uri: 'file:///r.json', name: 'r', title: 'R', description: 'd', mimeType: 'application/json', size: 12, annotations },
      { type: 'resource', resource: { uri: 'file:///b', blob: 'AA==', mimeType: 'application/octet-stream', _meta: {} }, annotations, _meta: {} },
    ];
    expect(statusOf(env.contentBlocks, result({ content }))).toBe('pass');
  });
  test('malformed annotations or _meta fail with a pointer to the field', () => {
    const run = (block: unknown) => env.contentBlocks.run(result({ content: [{ type: 'text', text: 'ok' }, block] }), {});
    expect(run({ type: 'text', text: 'x', annotations: 'high' })).toMatchObject({ status: 'fail', pointer: '/result/content/1/annotations' });
    expect(run({ type: 'text', text: 'x', annotations: { audience: 'user' } })).toMatchObject({ status: 'fail', pointer: '/result/content/1/annotations/audience' });
    expect(run({ type: 'text', text: 'x', annotations: { priority: 5 } })).toMatchObject({ status: 'fail', pointer: '/result/content/1/annotations/priority' });
    expect(run({ type: 'image', data: 'AA==', mimeType: 'image/png', _meta: [] })).toMatchObject({ status: 'fail', pointer: '/result/content/1/_meta' });
    expect(run({ type: 'resource', resource: { uri: 'file:///a', text: 'a', _meta: 'x' } })).toMatchObject({ status: 'fail', pointer: '/result/content/1/resource/_meta' });
  });
  test('missing content, a non-object result, a bad block and an unknown type fail — on errors too', () => {
    expect(statusOf(env.contentBlocks, result({ structuredContent: payload() }))).toBe('fail');
    expect(statusOf(env.contentBlocks, result('just a string'))).toBe('fail');
    expect(statusOf(env.contentBlocks, result({ content: [{ type: 'image', data: 'AA==' }] }))).toBe('fail');
    expect(statusOf(env.contentBlocks, result({ content: [{ type: 'video', url: 'x' }] }))).toBe('fail');
    expect(statusOf(env.contentBlocks, result({ isError: true, content: [null] }))).toBe('fail');
  });
});

describe('envelope.structured-content', () => {
  const textOnly = { content: [{ type: 'text', text: JSON.stringify(payload()) }] };
  test('level follows the negotiated revision', () => {
    expect(statusOf(env.structuredContent, result(textOnly, { protocolVersion: '2025-11-25' }))).toBe('fail');
    expect(statusOf(env.structuredContent, result(textOnly, { protocolVersion: '2025-06-18' }))).toBe('fail');
    expect(statusOf(env.structuredContent, result(textOnly, { protocolVersion: '2025-03-26' }))).toBe('warn');
    const old = env.structuredContent.run(result(textOnly, { protocolVersion: '2024-11-05' }), {});
    expect(old).toMatchObject({ status: 'skip', reason: expect.stringContaining('2024-11-05') });
  });
  test('a non-AdCP tool without an outputSchema is not judged (structuredContent is optional in MCP)', () => {
    const plain = { content: [{ type: 'text', text: 'pong' }] };
    expect(env.structuredContent.run(result(plain, { tool: 'ping' }), {})).toMatchObject({ status: 'skip', reason: expect.stringContaining("'ping' is not an AdCP task") });
    const declared = { name: 'ping', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } };
    expect(statusOf(env.structuredContent, result(plain, { tool: 'ping', advertised: declared }))).toBe('fail');
  });
  test('present passes; errors are not judged', () => {
    expect(statusOf(env.structuredContent, result(success()))).toBe('pass');
    expect(statusOf(env.structuredContent, result(errorResult(goodError)))).toBe('skip');
  });
});

describe('envelope.structured-content-object', () => {
  test('object passes, array and null fail, absent skips', () => {
    expect(statusOf(env.structuredContentObject, result(success()))).toBe('pass');
    expect(statusOf(env.structuredContentObject, result({ content: [], structuredContent: [1] }))).toBe('fail');
    expect(statusOf(env.structuredContentObject, result({ content: [], structuredContent: null }))).toBe('fail');
    expect(statusOf(env.structuredContentObject, result({ content: [] }))).toBe('skip');
  });
});

describe('envelope.adcp-error-only-success', () => {
  const only = { adcp_error: { code: 'RATE_LIMITED', message: 'slow' } };
  test('adcp_error-only structuredContent or text fails', () => {
    expect(statusOf(env.adcpErrorOnlySuccess, result({ content: [], structuredContent: only }))).toBe('fail');
    expect(statusOf(env.adcpErrorOnlySuccess, result({ content: [{ type: 'text', text: JSON.stringify(only) }] }))).toBe('fail');
  });
  test('adcp_error beside data is not an error-only object; errors are judged elsewhere', () => {
    expect(statusOf(env.adcpErrorOnlySuccess, result(success(payload({ adcp_error: { code: 'X' } }))))).toBe('pass');
    expect(statusOf(env.adcpErrorOnlySuccess, result(errorResult(goodError)))).toBe('skip');
  });
});

describe('envelope.extractable', () => {
  test('structuredContent or JSON text passes', () => {
    expect(statusOf(env.extractable, result(success()))).toBe('pass');
    expect(statusOf(env.extractable, result({ content: [{ type: 'text', text: 'summary' }, { type: 'text', text: JSON.stringify(payload()) }] }))).toBe('pass');
  });
  test('plain text and adcp_error-only fail; non-AdCP tools skip', () => {
    expect(statusOf(env.extractable, result({ content: [{ type: 'text', text: 'Found 3 products' }] }))).toBe('fail');
    expect(statusOf(env.extractable, result({ content: [{ type: 'text', text: '[1,2]' }] }))).toBe('fail');
    const only = { adcp_error: { code: 'X' } };
    expect(statusOf(env.extractable, result({ content: [], structuredContent: only }))).toBe('fail');
    expect(statusOf(env.extractable, result({ content: [{ type: 'text', text: 'hi' }] }, { tool: 'echo' }))).toBe('skip');
  });
});

describe('envelope.size', () => {
  const big = 'x'.repeat(1_048_577);
  test('a text item or structuredContent over 1 MiB fails', () => {
    expect(statusOf(env.size, result({ content: [{ type: 'text', text: big }], structuredContent: payload() }))).toBe('fail');
    expect(statusOf(env.size, result({ content: [], structuredContent: { blob: big } }))).toBe('fail');
  });
  test('UTF-8 is the measure; the UTF-16 disagreement is reported', () => {
    const euro = '€'.repeat(400_000); // 400k UTF-16 units, 1.2 MB UTF-8
    const v = env.size.run(result({ content: [{ type: 'text', text: euro }], structuredContent: payload() }), {});
    expect(v).toMatchObject({ status: 'fail', found: expect.stringContaining('UTF-16') });
  });
  test('within the limit passes; an oversize transport failure fails; other failures skip', () => {
    expect(statusOf(env.size, result(success()))).toBe('pass');
    expect(statusOf(env.size, noAnswer('oversize'))).toBe('fail');
    expect(statusOf(env.size, noAnswer('timeout'))).toBe('skip');
  });
});

describe('envelope.text-mirror', () => {
  test('equal JSON passes (key order ignored); differing JSON warns; no JSON text skips', () => {
    const sc = payload();
    const reordered = JSON.stringify({ products: sc.products, status: sc.status });
    expect(statusOf(env.textMirror, result({ structuredContent: sc, content: [{ type: 'text', text: reordered }] }))).toBe('pass');
    expect(statusOf(env.textMirror, result({ structuredContent: sc, content: [{ type: 'text', text: JSON.stringify(payload({ status: 'working' })) }] }))).toBe('warn');
    expect(statusOf(env.textMirror, result({ structuredContent: sc, content: [{ type: 'text', text: 'Found 1 product' }] }))).toBe('skip');
  });
});

describe('envelope.flat', () => {
  test('a lone payload/data/response key fails, with or without envelope siblings', () => {
    expect(statusOf(env.flat, result(success({ data: { products: [] } })))).toBe('fail');
    expect(statusOf(env.flat, result(success({ status: 'completed', context: {}, response: { products: [] } })))).toBe('fail');
  });
  test('flat payloads pass, and a `data` key beside body fields is data', () => {
    expect(statusOf(env.flat, result(success()))).toBe('pass');
    expect(statusOf(env.flat, result(success({ status: 'completed', data: { a: 1 }, products: [] })))).toBe('pass');
    expect(statusOf(env.flat, result(success({ status: 'completed', data: 'string' })))).toBe('pass');
  });
});

describe('envelope.status', () => {
  test('valid status passes', () => {
    expect(statusOf(env.status, result(success()))).toBe('pass');
  });
  test('missing status: SHOULD at 3.0, MUST from 3.1 (payload adcp_version, then schema service, then config)', () => {
    expect(statusOf(env.status, result(success({ products: [] })))).toBe('warn');
    expect(statusOf(env.status, result(success({ adcp_version: '3.1', products: [] })))).toBe('fail');
    expect(statusOf(env.status, result(success({ products: [] })), { agent: { name: 'a', transport: 'stdio', production: false, sandbox: true, adcpVersion: '3.1' } })).toBe('fail');
    expect(statusOf(env.status, result(success({ adcp_version: '3.0', status: 'ok', products: [] })))).toBe('warn');
  });
});

describe('envelope.legacy-status-fields', () => {
  test('task_status or response_status fails', () => {
    expect(statusOf(env.legacyStatusFields, result(success(payload({ task_status: 'completed' }))))).toBe('fail');
    expect(statusOf(env.legacyStatusFields, result(success(payload({ response_status: 'ok' }))))).toBe('fail');
    expect(statusOf(env.legacyStatusFields, result(success()))).toBe('pass');
  });
});

describe('envelope.context-echo', () => {
  const context = { trace: 't-1', nested: { a: [1, 2] } };
  const sent = { request: { name: 'get_products', arguments: { context } } };
  test('success: echoed passes, missing or changed fails', () => {
    expect(statusOf(env.contextEcho, result(success(payload({ context: { nested: { a: [1, 2] }, trace: 't-1' } })), sent))).toBe('pass');
    expect(statusOf(env.contextEcho, result(success(), sent))).toBe('fail');
    expect(statusOf(env.contextEcho, result(success(payload({ context: { trace: 't-1' } })), sent))).toBe('fail');
  });
  test('errors: beside adcp_error, inside adcp_error, or in the text JSON all pass; absent fails', () => {
    expect(statusOf(env.contextEcho, result(errorResult(goodError, { context }), sent))).toBe('pass');
    expect(statusOf(env.contextEcho, result(errorResult({ ...goodError, context }), sent))).toBe('pass');
    const textOnly = { isError: true, content: [{ type: 'text', text: JSON.stringify({ adcp_error: goodError, context }) }] };
    expect(statusOf(env.contextEcho, result(textOnly, sent))).toBe('pass');
    expect(statusOf(env.contextEcho, result(errorResult(goodError), sent))).toBe('fail');
  });
  test('no context sent, or a JSON-RPC error: skip', () => {
    expect(statusOf(env.contextEcho, result(success()))).toBe('skip');
    expect(statusOf(env.contextEcho, rpcError({ code: -32602, message: 'bad' }, sent))).toBe('skip');
  });
});

describe('envelope.reserved-keys', () => {
  test('a parsed "__proto__" key anywhere warns, in structuredContent or in the text JSON', () => {
    const hostile = JSON.parse('{"status":"completed","products":[{"__proto__":{"polluted":true}}]}') as unknown;
    expect(statusOf(env.reservedKeys, result(success(hostile)))).toBe('warn');
    const inText = { content: [{ type: 'text', text: '{"a":{"constructor":{}}}' }] };
    expect(statusOf(env.reservedKeys, result(inText))).toBe('warn');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  test('clean results pass; hostile nesting does not blow the stack', () => {
    expect(statusOf(env.reservedKeys, result(success()))).toBe('pass');
    let deep: unknown = { prototype: 1 };
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(findReservedKey(deep, '')).toBeNull(); // beyond the depth bound: not walked, no crash
    expect(statusOf(env.reservedKeys, result({ content: [], structuredContent: deep }))).toBe('pass');
  });
});
