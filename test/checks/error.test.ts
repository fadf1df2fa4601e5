import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../harness/record/exchange.ts';
import type { CheckContext, ExchangeCheck } from '../../harness/checks/check.ts';
import { findLeak } from '../../harness/checks/error/_leaks.ts';
import adcpError from '../../harness/checks/error/adcp-error.ts';
import code from '../../harness/checks/error/code.ts';
import jsonrpcData from '../../harness/checks/error/jsonrpc-data.ts';
import messageSafety from '../../harness/checks/error/message-safety.ts';
import noInternals from '../../harness/checks/error/no-internals.ts';
import recovery from '../../harness/checks/error/recovery.ts';
import retryAfter from '../../harness/checks/error/retry-after.ts';
import size from '../../harness/checks/error/size.ts';
import textMirror from '../../harness/checks/error/text-mirror.ts';
import validation from '../../harness/checks/error/validation.ts';
import { errorResult, goodError, noAnswer, result, rpcError, success } from './build.ts';

/** The judge's verdict on one call. A failure is `fail` whatever the level: the engine turns it into a warning under SHOULD. */
const statusOf = (check: ExchangeCheck, x: Exchange, ctx: CheckContext = {}): string => check.judge(x, ctx).status;

const withError = (e: Record<string, unknown>) => result(errorResult(e));

describe('error.adcp-error', () => {
  test('structuredContent.adcp_error or text JSON passes', () => {
    expect(statusOf(adcpError, withError(goodError))).toBe('pass');
    expect(
      statusOf(adcpError, result({ isError: true, content: [{ type: 'text', text: JSON.stringify({ adcp_error: goodError }) }] })),
    ).toBe('pass');
  });
  test('plain text, payload errors[] only, or a non-object adcp_error fails', () => {
    expect(statusOf(adcpError, result({ isError: true, content: [{ type: 'text', text: 'boom' }] }))).toBe('fail');
    expect(statusOf(adcpError, result({ isError: true, content: [], structuredContent: { errors: [goodError] } }))).toBe('fail');
    expect(statusOf(adcpError, result({ isError: true, content: [], structuredContent: { adcp_error: 'RATE_LIMITED' } }))).toBe('fail');
  });
  test("a plain MCP error from a non-AdCP tool on the same server is not judged; an AdCP task's is", () => {
    const plain = { isError: true, content: [{ type: 'text', text: 'file not found' }] };
    expect(adcpError.judge(result(plain, { tool: 'read_file' }))).toMatchObject({
      status: 'not-applicable',
      reason: expect.stringContaining("'read_file' is not an AdCP task"),
    });
    expect(statusOf(adcpError, result(plain, { tool: 'get_products' }))).toBe('fail');
    expect(statusOf(adcpError, result(errorResult(goodError), { tool: 'read_file' }))).toBe('pass');
  });
  test('successes are not judged', () => {
    expect(statusOf(adcpError, result(success()))).toBe('not-applicable');
  });
});

describe('error.text-mirror', () => {
  test('the same adcp_error JSON in content[0] passes; plain text or a different error warns (SHOULD)', () => {
    expect(textMirror.severity).toBe('SHOULD');
    expect(statusOf(textMirror, withError(goodError))).toBe('pass');
    const plain = { ...errorResult(goodError), content: [{ type: 'text', text: 'Budget too low' }] };
    expect(statusOf(textMirror, result(plain))).toBe('fail');
    const differs = { ...errorResult(goodError), content: [{ type: 'text', text: JSON.stringify({ adcp_error: { code: 'OTHER' } }) }] };
    expect(statusOf(textMirror, result(differs))).toBe('fail');
  });
  test('the error only in a later text item warns (not content[0])', () => {
    const later = {
      isError: true,
      content: [
        { type: 'text', text: 'x' },
        { type: 'text', text: JSON.stringify({ adcp_error: goodError }) },
      ],
    };
    expect(statusOf(textMirror, result(later))).toBe('fail');
  });
});

describe('error.code', () => {
  test('1–64 char string passes; empty, 65 chars, number fails', () => {
    expect(statusOf(code, withError(goodError))).toBe('pass');
    expect(statusOf(code, withError({ ...goodError, code: '' }))).toBe('fail');
    expect(statusOf(code, withError({ ...goodError, code: 'C'.repeat(65) }))).toBe('fail');
    expect(statusOf(code, withError({ ...goodError, code: 42 }))).toBe('fail');
  });
  test('applies to JSON-RPC error.data.adcp_error too', () => {
    expect(statusOf(code, rpcError({ code: -32029, message: 'r', data: { adcp_error: { code: 7 } } }))).toBe('fail');
    expect(statusOf(code, rpcError({ code: -32601, message: 'no method' }))).toBe('not-applicable');
  });
});

describe('error.size', () => {
  test('≤ 4096 bytes passes; larger fails (UTF-8 bytes)', () => {
    expect(statusOf(size, withError(goodError))).toBe('pass');
    expect(statusOf(size, withError({ ...goodError, details: { blob: 'é'.repeat(2100) } }))).toBe('fail');
  });
});

describe('error.recovery', () => {
  test('enum value passes; absent or unknown warns (SHOULD below AdCP 3.1, MUST from 3.1)', () => {
    expect(recovery.severity).toEqual({ byAdcpVersion: [{ from: '3.1', level: 'MUST' }], below: 'SHOULD' });
    expect(statusOf(recovery, withError(goodError))).toBe('pass');
    expect(statusOf(recovery, withError({ code: 'X', message: 'm' }))).toBe('fail');
    expect(statusOf(recovery, withError({ ...goodError, recovery: 'retry' }))).toBe('fail');
  });
});

describe('error.retry-after', () => {
  test('absent or integer 1–3600 passes; 0, 3601, 1.5, "5" fail', () => {
    expect(statusOf(retryAfter, withError(goodError))).toBe('pass');
    expect(statusOf(retryAfter, withError({ ...goodError, retry_after: 1 }))).toBe('pass');
    expect(statusOf(retryAfter, withError({ ...goodError, retry_after: 3600 }))).toBe('pass');
    for (const bad of [0, 3601, 1.5, '5', null]) expect(statusOf(retryAfter, withError({ ...goodError, retry_after: bad }))).toBe('fail');
  });
});

describe('error.jsonrpc-data', () => {
  test('reserved codes need data.adcp_error', () => {
    expect(statusOf(jsonrpcData, rpcError({ code: -32029, message: 'r', data: { adcp_error: { code: 'RATE_LIMITED' } } }))).toBe('pass');
    expect(statusOf(jsonrpcData, rpcError({ code: -32028, message: 'auth' }))).toBe('fail');
    expect(statusOf(jsonrpcData, rpcError({ code: -32027, message: 'down', data: { adcp_error: 'SERVICE_UNAVAILABLE' } }))).toBe('fail');
  });
  test('other codes and results are not applicable', () => {
    expect(statusOf(jsonrpcData, rpcError({ code: -32602, message: 'bad' }))).toBe('not-applicable');
    expect(statusOf(jsonrpcData, withError(goodError))).toBe('not-applicable');
  });
});

describe('error.validation', () => {
  const invalid = { intent: 'invalid' as const };
  test('isError + adcp_error passes whatever the code; JSON-RPC with data.adcp_error passes', () => {
    expect(statusOf(validation, result(errorResult({ code: 'VALIDATION_ERROR', message: 'm' }), invalid))).toBe('pass');
    expect(statusOf(validation, result(errorResult({ code: 'BUDGET_TOO_LOW', message: 'm' }), invalid))).toBe('pass');
    expect(statusOf(validation, rpcError({ code: -32602, message: 'x', data: { adcp_error: goodError } }, invalid))).toBe('pass');
  });
  test('a bare JSON-RPC error or an accepted request warns (SHOULD)', () => {
    expect(validation.severity).toBe('SHOULD');
    expect(statusOf(validation, rpcError({ code: -32602, message: 'Invalid params' }, invalid))).toBe('fail');
    expect(statusOf(validation, result(success(), invalid))).toBe('fail');
  });
  test('valid probes are not applicable; no answer, and isError without adcp_error, are untested', () => {
    expect(statusOf(validation, withError(goodError))).toBe('not-applicable');
    expect(statusOf(validation, { ...noAnswer(), intent: 'invalid' })).toBe('untested');
    expect(validation.judge(result({ isError: true, content: [{ type: 'text', text: 'bad input' }] }, invalid))).toMatchObject({
      status: 'untested',
      reason: expect.stringContaining('see error.adcp-error'),
    });
  });
});

describe('error.message-safety', () => {
  test('short clean text passes', () => {
    expect(statusOf(messageSafety, withError({ ...goodError, suggestion: 'Raise the budget to 500 USD' }))).toBe('pass');
  });
  test('long message/suggestion, control and bidi characters warn (SHOULD)', () => {
    expect(messageSafety.severity).toBe('SHOULD');
    expect(statusOf(messageSafety, withError({ ...goodError, message: 'm'.repeat(257) }))).toBe('fail');
    expect(statusOf(messageSafety, withError({ ...goodError, suggestion: 's'.repeat(513) }))).toBe('fail');
    expect(statusOf(messageSafety, withError({ ...goodError, message: 'a\u0007b' }))).toBe('fail');
    expect(statusOf(messageSafety, withError({ ...goodError, message: 'a\u202Eb' }))).toBe('fail');
    expect(statusOf(messageSafety, withError({ ...goodError, message: 7 }))).toBe('fail');
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

  test('scans message, suggestion and nested details; warns (SHOULD) at the pointer', () => {
    expect(noInternals.severity).toBe('SHOULD');
    const v = noInternals.judge(withError({ ...goodError, details: { upstream: { body: '<html><body>oops</body></html>' } } }));
    expect(v).toMatchObject({ status: 'fail', pointer: '/result/structuredContent/adcp_error/details/upstream/body' });
    expect(statusOf(noInternals, withError(goodError))).toBe('pass');
  });
});

describe('the located adcp_error the field checks judge', () => {
  const fieldChecks: ExchangeCheck[] = [code, size, recovery, retryAfter, messageSafety, noInternals];
  test('a plain MCP error of a tool that is not an AdCP task is not applicable; of an AdCP task, untested (see error.adcp-error)', () => {
    const plain = { isError: true, content: [{ type: 'text', text: 'file not found' }] };
    for (const check of [...fieldChecks, textMirror as ExchangeCheck]) {
      expect(check.judge(result(plain, { tool: 'read_file' }), {}), check.id).toMatchObject({ status: 'not-applicable' });
      expect(check.judge(result(plain), {}), check.id).toMatchObject({
        status: 'untested',
        reason: expect.stringContaining('see error.adcp-error'),
      });
    }
  });
  test('a reserved JSON-RPC code without data.adcp_error is untested (see error.jsonrpc-data); another code is not applicable', () => {
    for (const check of fieldChecks) {
      const reserved = check.judge(rpcError({ code: -32029, message: 'slow down' }), {});
      expect(reserved, check.id).toMatchObject({ status: 'untested', reason: expect.stringContaining('see error.jsonrpc-data') });
      expect(statusOf(check, rpcError({ code: -32602, message: 'bad', data: { adcp_error: 'X' } })), check.id).toBe('not-applicable');
    }
  });
  test('only a payload errors[] item, or no answer, is untested; a success is not applicable', () => {
    for (const check of fieldChecks) {
      expect(statusOf(check, result({ isError: true, content: [], structuredContent: { errors: [goodError] } })), check.id).toBe(
        'untested',
      );
      expect(statusOf(check, noAnswer()), check.id).toBe('untested');
      expect(statusOf(check, result(success())), check.id).toBe('not-applicable');
    }
  });
});

test('error.no-internals is a harness addition that links its section of docs/checks.md', () => {
  expect(noInternals).toMatchObject({ harnessAddition: true, spec: { url: 'docs/checks.md#errorno-internals' } });
});
