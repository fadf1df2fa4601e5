import { describe, expect, test } from 'vitest';
import * as err from '../../harness/checks/error.ts';
import { findLeak } from '../../harness/checks/leaks.ts';
import { errorResult, goodError, noAnswer, result, rpcError, statusOf, success } from './build.ts';

const withError = (e: Record<string, unknown>) => result(errorResult(e));

describe('error.adcp-error', () => {
  test('structuredContent.adcp_error or text JSON passes', () => {
    expect(statusOf(err.adcpError, withError(goodError))).toBe('pass');
    expect(statusOf(err.adcpError, result({ isError: true, content: [{ type: 'text', text: JSON.stringify({ adcp_error: goodError }) }] }))).toBe('pass');
  });
  test('plain text, payload errors[] only, or a non-object adcp_error fails', () => {
    expect(statusOf(err.adcpError, result({ isError: true, content: [{ type: 'text', text: 'boom' }] }))).toBe('fail');
    expect(statusOf(err.adcpError, result({ isError: true, content: [], structuredContent: { errors: [goodError] } }))).toBe('fail');
    expect(statusOf(err.adcpError, result({ isError: true, content: [], structuredContent: { adcp_error: 'RATE_LIMITED' } }))).toBe('fail');
  });
  test('a plain MCP error from a non-AdCP tool on the same server is not judged; an AdCP task\'s is', () => {
    const plain = { isError: true, content: [{ type: 'text', text: 'file not found' }] };
    expect(err.adcpError.run(result(plain, { tool: 'read_file' }), {})).toMatchObject({ status: 'skip', reason: expect.stringContaining("'read_file' is not an AdCP task") });
    expect(statusOf(err.adcpError, result(plain, { tool: 'get_products' }))).toBe('fail');
    expect(statusOf(err.adcpError, result(errorResult(goodError), { tool: 'read_file' }))).toBe('pass');
  });
  test('successes are not judged', () => {
    expect(statusOf(err.adcpError, result(success()))).toBe('skip');
  });
});

describe('error.text-mirror', () => {
  test('the same adcp_error JSON in content[0] passes; plain text or a different error warns', () => {
    expect(statusOf(err.textMirror, withError(goodError))).toBe('pass');
    const plain = { ...errorResult(goodError), content: [{ type: 'text', text: 'Budget too low' }] };
    expect(statusOf(err.textMirror, result(plain))).toBe('warn');
    const differs = { ...errorResult(goodError), content: [{ type: 'text', text: JSON.stringify({ adcp_error: { code: 'OTHER' } }) }] };
    expect(statusOf(err.textMirror, result(differs))).toBe('warn');
  });
  test('the error only in a later text item warns (not content[0])', () => {
    const later = { isError: true, content: [{ type: 'text', text: 'x' }, { type: 'text', text: JSON.stringify({ adcp_error: goodError }) }] };
    expect(statusOf(err.textMirror, result(later))).toBe('warn');
  });
});

describe('error.code', () => {
  test('1–64 char string passes; empty, 65 chars, number fails', () => {
    expect(statusOf(err.code, withError(goodError))).toBe('pass');
    expect(statusOf(err.code, withError({ ...goodError, code: '' }))).toBe('fail');
    expect(statusOf(err.code, withError({ ...goodError, code: 'C'.repeat(65) }))).toBe('fail');
    expect(statusOf(err.code, withError({ ...goodError, code: 42 }))).toBe('fail');
  });
  test('applies to JSON-RPC error.data.adcp_error too', () => {
    expect(statusOf(err.code, rpcError({ code: -32029, message: 'r', data: { adcp_error: { code: 7 } } }))).toBe('fail');
    expect(statusOf(err.code, rpcError({ code: -32601, message: 'no method' }))).toBe('skip');
  });
});

describe('error.size', () => {
  test('≤ 4096 bytes passes; larger fails (UTF-8 bytes)', () => {
    expect(statusOf(err.size, withError(goodError))).toBe('pass');
    expect(statusOf(err.size, withError({ ...goodError, details: { blob: 'é'.repeat(2100) } }))).toBe('fail');
  });
});

describe('error.recovery', () => {
  test('enum value passes; absent or unknown warns', () => {
    expect(statusOf(err.recovery, withError(goodError))).toBe('pass');
    expect(statusOf(err.recovery, withError({ code: 'X', message: 'm' }))).toBe('warn');
    expect(statusOf(err.recovery, withError({ ...goodError, recovery: 'retry' }))).toBe('warn');
  });
});

describe('error.retry-after', () => {
  test('absent or integer 1–3600 passes; 0, 3601, 1.5, "5" fail', () => {
    expect(statusOf(err.retryAfter, withError(goodError))).toBe('pass');
    expect(statusOf(err.retryAfter, withError({ ...goodError, retry_after: 1 }))).toBe('pass');
    expect(statusOf(err.retryAfter, withError({ ...goodError, retry_after: 3600 }))).toBe('pass');
    for (const bad of [0, 3601, 1.5, '5', null]) expect(statusOf(err.retryAfter, withError({ ...goodError, retry_after: bad }))).toBe('fail');
  });
});

describe('error.jsonrpc-data', () => {
  test('reserved codes need data.adcp_error', () => {
    expect(statusOf(err.jsonrpcData, rpcError({ code: -32029, message: 'r', data: { adcp_error: { code: 'RATE_LIMITED' } } }))).toBe('pass');
    expect(statusOf(err.jsonrpcData, rpcError({ code: -32028, message: 'auth' }))).toBe('fail');
    expect(statusOf(err.jsonrpcData, rpcError({ code: -32027, message: 'down', data: { adcp_error: 'SERVICE_UNAVAILABLE' } }))).toBe('fail');
  });
  test('other codes and results skip', () => {
    expect(statusOf(err.jsonrpcData, rpcError({ code: -32602, message: 'bad' }))).toBe('skip');
    expect(statusOf(err.jsonrpcData, withError(goodError))).toBe('skip');
  });
});

describe('error.validation', () => {
  const invalid = { intent: 'invalid' as const };
  test('isError + adcp_error passes whatever the code; JSON-RPC with data.adcp_error passes', () => {
    expect(statusOf(err.validation, result(errorResult({ code: 'VALIDATION_ERROR', message: 'm' }), invalid))).toBe('pass');
    expect(statusOf(err.validation, result(errorResult({ code: 'BUDGET_TOO_LOW', message: 'm' }), invalid))).toBe('pass');
    expect(statusOf(err.validation, rpcError({ code: -32602, message: 'x', data: { adcp_error: goodError } }, invalid))).toBe('pass');
  });
  test('a bare JSON-RPC error or an accepted request warns', () => {
    expect(statusOf(err.validation, rpcError({ code: -32602, message: 'Invalid params' }, invalid))).toBe('warn');
    expect(statusOf(err.validation, result(success(), invalid))).toBe('warn');
  });
  test('valid probes, no answer, and isError without adcp_error skip', () => {
    expect(statusOf(err.validation, withError(goodError))).toBe('skip');
    expect(statusOf(err.validation, { ...noAnswer(), intent: 'invalid' })).toBe('skip');
    expect(statusOf(err.validation, result({ isError: true, content: [{ type: 'text', text: 'bad input' }] }, invalid))).toBe('skip');
  });
});

describe('error.message-safety', () => {
  test('short clean text passes', () => {
    expect(statusOf(err.messageSafety, withError({ ...goodError, suggestion: 'Raise the budget to 500 USD' }))).toBe('pass');
  });
  test('long message/suggestion, control and bidi characters warn', () => {
    expect(statusOf(err.messageSafety, withError({ ...goodError, message: 'm'.repeat(257) }))).toBe('warn');
    expect(statusOf(err.messageSafety, withError({ ...goodError, suggestion: 's'.repeat(513) }))).toBe('warn');
    expect(statusOf(err.messageSafety, withError({ ...goodError, message: 'a\u0007b' }))).toBe('warn');
    expect(statusOf(err.messageSafety, withError({ ...goodError, message: 'a\u202Eb' }))).toBe('warn');
    expect(statusOf(err.messageSafety, withError({ ...goodError, message: 7 }))).toBe('warn');
  });
});

describe('error.no-internals', () => {
  test.for([
    ['JS stack frame', 'at Object.<anonymous> (/srv/app/index.js:12:5)'],
    ['bare frame', 'failed\n    at /home/app/dist/server.js:10:3'],
    ['node internal frame', 'at process.processTicksAndRejections (node:internal/process/task_queues:95:5)'],
    ['Python traceback', 'Traceback (most recent call last):\n  File "/app/x.py", line 3'],
    ['exception prefix', "TypeError: Cannot read properties of undefined (reading 'id')"],
    ['the RULES example', "Cannot use 'in' operator to search for 'x' in undefined"],
    ['Java exception', 'java.lang.NullPointerException at com.example.Handler'],
    ['absolute path', 'could not open /var/lib/seller/db.sqlite'],
    ['Windows path', 'failed to read C:\\inetpub\\seller\\web.config'],
    ['SQL', 'SELECT id, name FROM products WHERE brief = $1'],
    ['SQL error', 'ERROR: syntax error at or near "FROM"'],
    ['HTML body', '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>'],
  ])('flags %s', ([, text]) => {
    expect(findLeak(text!)).not.toBeNull();
  });

  test.for([
    ['a field path', 'packages[0].targeting.geo_countries is invalid'],
    ['a URL', 'see https://docs.adcontextprotocol.org/app/errors.json for codes'],
    ['English with select/from', 'Please select a product from the catalog'],
    ['a plain budget message', 'Budget is below the seller minimum of 500 USD'],
    ['an API path', 'use /v1/products instead'],
    ['an error code word', 'VALIDATION_ERROR: brief is required'],
  ])('does not flag %s', ([, text]) => {
    expect(findLeak(text!)).toBeNull();
  });

  test('scans message, suggestion and nested details; warns at the pointer', () => {
    const v = err.noInternals.run(withError({ ...goodError, details: { upstream: { body: '<html><body>oops</body></html>' } } }), {});
    expect(v).toMatchObject({ status: 'fail', pointer: '/result/structuredContent/adcp_error/details/upstream/body' });
    expect(statusOf(err.noInternals, withError(goodError))).toBe('pass');
  });
});
