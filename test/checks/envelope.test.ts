import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../harness/record/exchange.ts';
import type { CheckContext, ExchangeCheck } from '../../harness/checks/check.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import adcpErrorOnlySuccess from '../../harness/checks/envelope/adcp-error-only-success.ts';
import contentBlocks from '../../harness/checks/envelope/content-blocks.ts';
import contextEcho from '../../harness/checks/envelope/context-echo.ts';
import extractable from '../../harness/checks/envelope/extractable.ts';
import flat from '../../harness/checks/envelope/flat.ts';
import isErrorType from '../../harness/checks/envelope/is-error-type.ts';
import legacyStatusFields from '../../harness/checks/envelope/legacy-status-fields.ts';
import reservedKeys, { findReservedKey } from '../../harness/checks/envelope/reserved-keys.ts';
import { jsonBytes, jsonBytesWalk, jsonPrefix } from '../../harness/json.ts';
import size from '../../harness/checks/envelope/size.ts';
import status from '../../harness/checks/envelope/status.ts';
import structuredContentObject from '../../harness/checks/envelope/structured-content-object.ts';
import structuredContent from '../../harness/checks/envelope/structured-content.ts';
import textMirror from '../../harness/checks/envelope/text-mirror.ts';
import { capture, errorResult, goodError, noAnswer, payload, result, rpcError, success } from './build.ts';

/** The judge's verdict on one call. A failure is `fail` whatever the level: the engine turns it into a warning under SHOULD. */
const statusOf = (check: ExchangeCheck, x: Exchange, ctx: CheckContext = {}): string => check.judge(x, ctx).status;

/** The engine's outcome statuses for one check over some calls (levels resolved per call). */
const outcomes = (check: ExchangeCheck, exchanges: Exchange[], ctx: CheckContext = {}) =>
  judgeAgent(capture({ exchanges }), ctx, undefined, [check]);

describe('envelope.is-error-type', () => {
  test('absent or boolean passes; a string fails', () => {
    expect(statusOf(isErrorType, result(success()))).toBe('pass');
    expect(statusOf(isErrorType, result(errorResult(goodError)))).toBe('pass');
    expect(statusOf(isErrorType, result(success(payload(), { isError: 'true' })))).toBe('fail');
    expect(statusOf(isErrorType, result(success(payload(), { isError: null })))).toBe('fail');
  });
  test('a JSON-RPC error is not applicable; a call without an answer is untested', () => {
    expect(statusOf(isErrorType, rpcError({ code: -32602, message: 'x' }))).toBe('not-applicable');
    expect(statusOf(isErrorType, noAnswer())).toBe('untested');
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
    expect(statusOf(contentBlocks, result({ content }))).toBe('pass');
  });
  test('MCP 2025-11-25 optional fields pass: annotations, _meta, resource_link metadata, blob resources', () => {
    const annotations = { audience: ['user', 'assistant'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' };
    const content = [
      { type: 'text', text: 'Found 3 products.', annotations, _meta: { 'io.example/trace': 'x' } },
      { type: 'image', data: 'AA==', mimeType: 'image/png', annotations: { priority: 1 } },
      { type: 'audio', data: 'AA==', mimeType: 'audio/wav', _meta: {} },
      {
        type: 'resource_link',
        uri: 'file:///r.json',
        name: 'r',
        title: 'R',
        description: 'd',
        mimeType: 'application/json',
        size: 12,
        annotations,
      },
      {
        type: 'resource',
        resource: { uri: 'file:///b', blob: 'AA==', mimeType: 'application/octet-stream', _meta: {} },
        annotations,
        _meta: {},
      },
    ];
    expect(statusOf(contentBlocks, result({ content }))).toBe('pass');
  });
  test('malformed annotations or _meta fail with a pointer to the field', () => {
    const run = (block: unknown) => contentBlocks.judge(result({ content: [{ type: 'text', text: 'ok' }, block] }));
    expect(run({ type: 'text', text: 'x', annotations: 'high' })).toMatchObject({
      status: 'fail',
      pointer: '/result/content/1/annotations',
    });
    expect(run({ type: 'text', text: 'x', annotations: { audience: 'user' } })).toMatchObject({
      status: 'fail',
      pointer: '/result/content/1/annotations/audience',
    });
    expect(run({ type: 'text', text: 'x', annotations: { priority: 5 } })).toMatchObject({
      status: 'fail',
      pointer: '/result/content/1/annotations/priority',
    });
    expect(run({ type: 'image', data: 'AA==', mimeType: 'image/png', _meta: [] })).toMatchObject({
      status: 'fail',
      pointer: '/result/content/1/_meta',
    });
    expect(run({ type: 'resource', resource: { uri: 'file:///a', text: 'a', _meta: 'x' } })).toMatchObject({
      status: 'fail',
      pointer: '/result/content/1/resource/_meta',
    });
  });
  test('missing content, a non-object result, a bad block and an unknown type fail — on errors too', () => {
    expect(statusOf(contentBlocks, result({ structuredContent: payload() }))).toBe('fail');
    expect(statusOf(contentBlocks, result('just a string'))).toBe('fail');
    expect(statusOf(contentBlocks, result({ content: [{ type: 'image', data: 'AA==' }] }))).toBe('fail');
    expect(statusOf(contentBlocks, result({ content: [{ type: 'video', url: 'x' }] }))).toBe('fail');
    expect(statusOf(contentBlocks, result({ isError: true, content: [null] }))).toBe('fail');
  });
});

describe('envelope.structured-content', () => {
  const textOnly = { content: [{ type: 'text', text: JSON.stringify(payload()) }] };
  test('level follows the negotiated revision', () => {
    const revisions = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', undefined];
    const out = outcomes(
      structuredContent,
      revisions.map((protocolVersion) => result(textOnly, { protocolVersion })),
    );
    expect(out.map((o) => [o.status, o.severity])).toEqual([
      ['fail', 'MUST'],
      ['fail', 'MUST'],
      ['warn', 'SHOULD'],
      ['not-applicable', 'MUST'],
      ['untested', 'MUST'],
    ]);
    expect(out[3]!.message).toContain('2024-11-05');
    expect(out[4]!.message).toContain('MCP revision is unknown');
  });
  test('a non-AdCP tool without an outputSchema is not judged (structuredContent is optional in MCP)', () => {
    const plain = { content: [{ type: 'text', text: 'pong' }] };
    expect(structuredContent.judge(result(plain, { tool: 'ping' }))).toMatchObject({
      status: 'not-applicable',
      reason: expect.stringContaining("'ping' is not an AdCP task"),
    });
    const declared = { name: 'ping', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } };
    expect(statusOf(structuredContent, result(plain, { tool: 'ping', advertised: declared }))).toBe('fail');
  });
  test('present passes; errors are not judged', () => {
    expect(statusOf(structuredContent, result(success()))).toBe('pass');
    expect(statusOf(structuredContent, result(errorResult(goodError)))).toBe('not-applicable');
  });
});

describe('envelope.structured-content-object', () => {
  test('object passes, array and null fail, absent is not applicable', () => {
    expect(statusOf(structuredContentObject, result(success()))).toBe('pass');
    expect(statusOf(structuredContentObject, result({ content: [], structuredContent: [1] }))).toBe('fail');
    expect(statusOf(structuredContentObject, result({ content: [], structuredContent: null }))).toBe('fail');
    expect(statusOf(structuredContentObject, result({ content: [] }))).toBe('not-applicable');
  });
});

describe('envelope.adcp-error-only-success', () => {
  const only = { adcp_error: { code: 'RATE_LIMITED', message: 'slow' } };
  test('adcp_error-only structuredContent or text fails', () => {
    expect(statusOf(adcpErrorOnlySuccess, result({ content: [], structuredContent: only }))).toBe('fail');
    expect(statusOf(adcpErrorOnlySuccess, result({ content: [{ type: 'text', text: JSON.stringify(only) }] }))).toBe('fail');
  });
  test('adcp_error beside data is not an error-only object; errors are judged elsewhere', () => {
    expect(statusOf(adcpErrorOnlySuccess, result(success(payload({ adcp_error: { code: 'X' } }))))).toBe('pass');
    expect(statusOf(adcpErrorOnlySuccess, result(errorResult(goodError)))).toBe('not-applicable');
  });
});

describe('envelope.extractable', () => {
  test('structuredContent or JSON text passes', () => {
    expect(statusOf(extractable, result(success()))).toBe('pass');
    expect(
      statusOf(
        extractable,
        result({
          content: [
            { type: 'text', text: 'summary' },
            { type: 'text', text: JSON.stringify(payload()) },
          ],
        }),
      ),
    ).toBe('pass');
  });
  test('plain text and adcp_error-only fail; non-AdCP tools are not applicable', () => {
    expect(statusOf(extractable, result({ content: [{ type: 'text', text: 'Found 3 products' }] }))).toBe('fail');
    expect(statusOf(extractable, result({ content: [{ type: 'text', text: '[1,2]' }] }))).toBe('fail');
    const only = { adcp_error: { code: 'X' } };
    expect(statusOf(extractable, result({ content: [], structuredContent: only }))).toBe('fail');
    expect(statusOf(extractable, result({ content: [{ type: 'text', text: 'hi' }] }, { tool: 'echo' }))).toBe('not-applicable');
  });
});

describe('envelope.size', () => {
  const big = 'x'.repeat(1_048_577);
  test('a text item or structuredContent over 1 MiB fails', () => {
    expect(statusOf(size, result({ content: [{ type: 'text', text: big }], structuredContent: payload() }))).toBe('fail');
    expect(statusOf(size, result({ content: [], structuredContent: { blob: big } }))).toBe('fail');
  });
  test('UTF-8 is the measure; the UTF-16 disagreement is reported', () => {
    const euro = '€'.repeat(400_000); // 400k UTF-16 units, 1.2 MB UTF-8
    const v = size.judge(result({ content: [{ type: 'text', text: euro }], structuredContent: payload() }));
    expect(v).toMatchObject({ status: 'fail', found: expect.stringContaining('UTF-16') });
  });
  test('within the limit passes; an oversize transport failure fails; other failures are untested', () => {
    expect(statusOf(size, result(success()))).toBe('pass');
    expect(statusOf(size, noAnswer('oversize'))).toBe('fail');
    expect(statusOf(size, noAnswer('timeout'))).toBe('untested');
    // The engine hands unanswered calls to this check (they are untested for every other one).
    expect(outcomes(size, [noAnswer('oversize'), noAnswer('timeout')]).map((o) => o.status)).toEqual(['fail', 'untested']);
  });
});

describe('envelope.text-mirror', () => {
  test('equal JSON passes (key order ignored); differing JSON warns (SHOULD); no JSON text is not applicable', () => {
    expect(textMirror.severity).toBe('SHOULD');
    const sc = payload();
    const reordered = JSON.stringify({ products: sc.products, status: sc.status });
    expect(statusOf(textMirror, result({ structuredContent: sc, content: [{ type: 'text', text: reordered }] }))).toBe('pass');
    expect(
      statusOf(
        textMirror,
        result({ structuredContent: sc, content: [{ type: 'text', text: JSON.stringify(payload({ status: 'working' })) }] }),
      ),
    ).toBe('fail');
    expect(statusOf(textMirror, result({ structuredContent: sc, content: [{ type: 'text', text: 'Found 1 product' }] }))).toBe(
      'not-applicable',
    );
  });
});

describe('envelope.flat', () => {
  test('a lone payload/data/response key fails, with or without envelope siblings', () => {
    expect(statusOf(flat, result(success({ data: { products: [] } })))).toBe('fail');
    expect(statusOf(flat, result(success({ status: 'completed', context: {}, response: { products: [] } })))).toBe('fail');
  });
  test('flat payloads pass, and a `data` key beside body fields is data', () => {
    expect(statusOf(flat, result(success()))).toBe('pass');
    expect(statusOf(flat, result(success({ status: 'completed', data: { a: 1 }, products: [] })))).toBe('pass');
    expect(statusOf(flat, result(success({ status: 'completed', data: 'string' })))).toBe('pass');
  });
});

describe('envelope.status', () => {
  test('valid status passes', () => {
    expect(statusOf(status, result(success()))).toBe('pass');
  });
  test('missing status: SHOULD at 3.0, MUST from 3.1 (payload adcp_version, then schema service, then config)', () => {
    const missing = [
      result(success({ products: [] })),
      result(success({ adcp_version: '3.1', products: [] })),
      result(success({ adcp_version: '3.0', status: 'ok', products: [] })),
    ];
    // The judge fails each; the engine reads the level off the AdCP version of each call.
    expect(missing.map((x) => statusOf(status, x))).toEqual(['fail', 'fail', 'fail']);
    expect(outcomes(status, missing).map((o) => [o.status, o.severity])).toEqual([
      ['warn', 'SHOULD'],
      ['fail', 'MUST'],
      ['warn', 'SHOULD'],
    ]);
    const configured = { agent: { name: 'a', transport: 'stdio' as const, production: false, sandbox: true, adcpVersion: '3.1' } };
    expect(outcomes(status, [result(success({ products: [] }))], configured).map((o) => o.status)).toEqual(['fail']);
  });
});

describe('envelope.legacy-status-fields', () => {
  test('task_status or response_status fails', () => {
    expect(statusOf(legacyStatusFields, result(success(payload({ task_status: 'completed' }))))).toBe('fail');
    expect(statusOf(legacyStatusFields, result(success(payload({ response_status: 'ok' }))))).toBe('fail');
    expect(statusOf(legacyStatusFields, result(success()))).toBe('pass');
  });
});

describe('envelope.context-echo', () => {
  const context = { trace: 't-1', nested: { a: [1, 2] } };
  const sent = { request: { name: 'get_products', arguments: { context } } };
  test('success: echoed passes, missing or changed fails', () => {
    expect(statusOf(contextEcho, result(success(payload({ context: { nested: { a: [1, 2] }, trace: 't-1' } })), sent))).toBe('pass');
    expect(statusOf(contextEcho, result(success(), sent))).toBe('fail');
    expect(statusOf(contextEcho, result(success(payload({ context: { trace: 't-1' } })), sent))).toBe('fail');
  });
  test('errors: beside adcp_error, inside adcp_error, or in the text JSON all pass; absent fails', () => {
    expect(statusOf(contextEcho, result(errorResult(goodError, { context }), sent))).toBe('pass');
    expect(statusOf(contextEcho, result(errorResult({ ...goodError, context }), sent))).toBe('pass');
    const textOnly = { isError: true, content: [{ type: 'text', text: JSON.stringify({ adcp_error: goodError, context }) }] };
    expect(statusOf(contextEcho, result(textOnly, sent))).toBe('pass');
    expect(statusOf(contextEcho, result(errorResult(goodError), sent))).toBe('fail');
  });
  test('no context sent, or a JSON-RPC error: not applicable', () => {
    expect(statusOf(contextEcho, result(success()))).toBe('not-applicable');
    expect(statusOf(contextEcho, rpcError({ code: -32602, message: 'bad' }, sent))).toBe('not-applicable');
  });
});

describe('envelope.reserved-keys', () => {
  test('a parsed "__proto__" key anywhere warns (SHOULD), in structuredContent or in the text JSON', () => {
    expect(reservedKeys.severity).toBe('SHOULD');
    const hostile = JSON.parse('{"status":"completed","products":[{"__proto__":{"polluted":true}}]}') as unknown;
    expect(statusOf(reservedKeys, result(success(hostile)))).toBe('fail');
    const inText = { content: [{ type: 'text', text: '{"a":{"constructor":{}}}' }] };
    expect(statusOf(reservedKeys, result(inText))).toBe('fail');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  test('clean results pass; hostile nesting does not blow the stack, nor hide a key', () => {
    expect(statusOf(reservedKeys, result(success()))).toBe('pass');
    let deep: unknown = { prototype: 1 };
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(findReservedKey(deep, '').hit).toBe(`${'/d'.repeat(100_000)}/prototype`); // no depth bound: found, no crash
    expect(statusOf(reservedKeys, result({ content: [], structuredContent: deep }))).toBe('fail');
    // Past the walk budget the check could not look: untested, never a pass.
    expect(
      findReservedKey(
        Array.from({ length: 10 }, () => ({})),
        '',
        5,
      ),
    ).toEqual({ hit: null, complete: false });
  });
  test('the first reserved key, by the walk’s order, is the one named; a budget that runs out before it leaves the walk incomplete', () => {
    const value = JSON.parse('{"a":[{"x":1},{"b":{"prototype":1}}],"c":{"constructor":2}}') as unknown;
    expect(findReservedKey(value, '/r')).toEqual({ hit: '/r/a/1/b/prototype', complete: true });
    expect(findReservedKey(value, '/r', 5)).toEqual({ hit: null, complete: false });
    expect(findReservedKey(value, '/r', 6)).toEqual({ hit: '/r/a/1/b/prototype', complete: true });
  });
});

describe('jsonBytes', () => {
  test('counts exactly what JSON.stringify writes (UTF-8), and the walk agrees where JSON.stringify gives up', () => {
    const samples: unknown[] = [
      { status: 'completed', products: [{ id: 'p1', price: 1.5, tags: ['a', 'é', '😀'], x: null, n: -0, big: 1e21 }] },
      ['\u0000\ud800', undefined, Infinity, NaN, true, false, { u: undefined, f: 1 }],
      JSON.parse('{"__proto__":{"k":"v"},"a":"\\\\"}'),
      '',
      0,
    ];
    for (const v of samples) {
      expect(jsonBytes(v)).toBe(Buffer.byteLength(JSON.stringify(v), 'utf8'));
      expect(jsonBytesWalk(v)).toBe(jsonBytes(v));
    }
    let deep: unknown = { leaf: 'é' };
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(jsonBytes(deep)).toBe(2 * 200_000 + Buffer.byteLength('{"leaf":"é"}'));
    expect(jsonBytes({ n: 1n })).toBeNull();
  });
});

describe('jsonPrefix', () => {
  const samples: unknown[] = [
    { status: 'completed', products: [{ id: 'p1', price: 1.5, tags: ['a', 'é', '😀'], x: null, n: -0, big: 1e21 }] },
    ['\u0000\ud800', undefined, Infinity, NaN, true, false, { u: undefined, f: 1, g: () => 1 }],
    JSON.parse('{"__proto__":{"k":"v"},"a":"\\\\","2":"two","1":"one"}'),
    { empty: {}, none: [], s: 'line\nbreak "quoted"' },
    '',
    0,
    null,
  ];
  test('writes exactly what JSON.stringify writes, and says it is complete', () => {
    for (const v of samples) expect(jsonPrefix(v, 10_000)).toEqual({ text: JSON.stringify(v), complete: true });
  });
  test('cut at any length: the same first characters as JSON.stringify, marked incomplete', () => {
    for (const v of samples) {
      const whole = JSON.stringify(v);
      for (let n = 0; n < whole.length; n++) expect(jsonPrefix(v, n)).toEqual({ text: whole.slice(0, n), complete: false });
    }
  });
  test('an answer of 1,000,000 keys, a 5 MB string, 200k levels of nesting: only the first characters are written', () => {
    const wide: Record<string, number> = {};
    for (let i = 0; i < 1_000_000; i++) wide[`k${i}`] = i;
    expect(jsonPrefix({ wide }, 40)).toEqual({ text: '{"wide":{"k0":0,"k1":1,"k2":2,"k3":3,"k4', complete: false });
    expect(jsonPrefix({ s: 'x'.repeat(5_000_000) }, 10)).toEqual({ text: '{"s":"xxxx', complete: false });
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonPrefix(deep, 5)).toEqual({ text: '[[[[[', complete: false });
    expect(() => jsonPrefix({ n: 1n }, 100)).toThrow(TypeError);
  });
});
