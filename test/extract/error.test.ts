// Error extraction: detection order, acceptance, recovery, client action, retry_after.
import { describe, expect, test } from 'vitest';
import type { ExchangeOutcome } from '../../harness/record/exchange.ts';
import {
  acceptAdcpError,
  clientAction,
  clientRetryAfter,
  effectiveRecovery,
  extractError,
  extractFromMessage,
  locateAdcpError,
  locateInMessage,
  RESERVED_JSONRPC_CODES,
} from '../../harness/extract/error.ts';

const A = { code: 'RATE_LIMITED', message: 'sc', recovery: 'transient' };
const B = { code: 'BUDGET_TOO_LOW', message: 'text', recovery: 'correctable' };
const C = { code: 'SERVICE_UNAVAILABLE', message: 'rpc' };
const E = { code: 'ACCOUNT_SUSPENDED', message: 'payload' };
const text = (t: unknown) => ({ type: 'text', text: t });
const result = (r: unknown): ExchangeOutcome => ({ kind: 'result', result: r });
const rpc = (e: unknown): ExchangeOutcome => ({ kind: 'jsonrpc-error', error: e });

describe('locateAdcpError (detection order, no validation)', () => {
  test('structuredContent, then text, then payload errors[0] on an isError result', () => {
    const full = { isError: true, structuredContent: { adcp_error: A, errors: [E] }, content: [text(JSON.stringify({ adcp_error: B }))] };
    expect(locateAdcpError(result(full))).toEqual({ raw: A, source: 'structuredContent', pointer: '/structuredContent/adcp_error' });
    const noSc = { isError: true, structuredContent: { errors: [E] }, content: [text('prose'), text(JSON.stringify({ adcp_error: B }))] };
    expect(locateAdcpError(result(noSc))).toEqual({ raw: B, source: 'text_fallback', pointer: '/content/1/text' });
    const payloadOnly = { isError: true, structuredContent: { status: 'failed', errors: [E] }, content: [text('prose')] };
    expect(locateAdcpError(result(payloadOnly))).toEqual({ raw: E, source: 'payload_errors', pointer: '/structuredContent/errors/0' });
    const nested = { isError: true, content: [text(JSON.stringify({ payload: { errors: [E] } }))] };
    expect(locateAdcpError(result(nested))).toEqual({ raw: E, source: 'payload_errors', pointer: '/content/0/text' });
  });

  test('JSON-RPC error.data.adcp_error; and between result and error in one message, the spec order', () => {
    expect(locateAdcpError(rpc({ code: -32029, message: 'x', data: { adcp_error: C } }))).toEqual({
      raw: C,
      source: 'jsonrpc_error',
      pointer: '/error/data/adcp_error',
    });
    const error = { code: -32027, data: { adcp_error: C } };
    expect(locateInMessage({ result: { isError: true, structuredContent: { adcp_error: A } }, error })?.source).toBe('structuredContent');
    expect(locateInMessage({ result: { isError: true, content: [text(JSON.stringify({ adcp_error: B }))] }, error })?.source).toBe(
      'jsonrpc_error',
    );
  });

  test('a success is never an error: adcp_error and errors[] without isError are not located', () => {
    expect(locateAdcpError(result({ structuredContent: { adcp_error: A } }))).toBeNull();
    expect(locateAdcpError(result({ isError: false, content: [text(JSON.stringify({ adcp_error: B }))] }))).toBeNull();
    expect(locateAdcpError(result({ structuredContent: { status: 'completed', errors: [E] } }))).toBeNull();
  });

  test('candidates are returned raw (invalid ones too); falsy adcp_error is not a candidate', () => {
    expect(locateAdcpError(result({ isError: true, structuredContent: { adcp_error: 'oops' } }))?.raw).toBe('oops');
    const nullSc = { isError: true, structuredContent: { adcp_error: null }, content: [text(JSON.stringify({ adcp_error: B }))] };
    expect(locateAdcpError(result(nullSc))?.source).toBe('text_fallback');
  });

  test('transport errors, junk results and junk errors → null, never a throw', () => {
    expect(locateAdcpError({ kind: 'transport-error', failure: { kind: 'timeout', message: 't' } })).toBeNull();
    for (const r of [null, 'x', 1, [], { isError: true }, { isError: true, content: [null, 5, 'x', text(null)] }]) {
      expect(locateAdcpError(result(r))).toBeNull();
    }
    for (const e of [null, 'x', { data: null }, { data: 'str' }, { data: [] }]) expect(locateAdcpError(rpc(e))).toBeNull();
  });
});

describe('acceptAdcpError', () => {
  test('code 1–64 chars', () => {
    expect(acceptAdcpError({ code: 'X'.repeat(64) }).ok).toBe(true);
    expect(acceptAdcpError({ code: 'X'.repeat(65) })).toEqual({ ok: false, reason: 'code is 65 chars (max 64)' });
    expect(acceptAdcpError({ code: '' })).toEqual({ ok: false, reason: 'code is empty' });
    expect(acceptAdcpError({ code: 429 })).toEqual({ ok: false, reason: 'code is not a string (number)' });
    expect(acceptAdcpError({ message: 'm' })).toEqual({ ok: false, reason: 'code is absent' });
    expect(acceptAdcpError([{ code: 'X' }])).toEqual({ ok: false, reason: 'not an object (array)' });
    expect(acceptAdcpError(null)).toEqual({ ok: false, reason: 'not an object (null)' });
  });

  test('serialized ≤ 4096 UTF-8 bytes', () => {
    const sized = (bytes: number, ch = 'x') => {
      const overhead = JSON.stringify({ code: 'C', message: '' }).length;
      return { code: 'C', message: ch.repeat((bytes - overhead) / Buffer.byteLength(ch)) };
    };
    expect(acceptAdcpError(sized(4096)).ok).toBe(true);
    expect(acceptAdcpError(sized(4097))).toEqual({ ok: false, reason: 'serialized error is 4097 bytes (max 4096)' });
    // 4096 UTF-8 bytes at most even when the UTF-16 length is well under
    const wide = { code: 'C', message: 'é'.repeat(2100) };
    expect(JSON.stringify(wide).length).toBeLessThan(4096);
    expect(acceptAdcpError(wide).ok).toBe(false);
  });

  test('accepted error is the raw object, not a copy', () => {
    const raw = { code: 'X' };
    const r = acceptAdcpError(raw);
    expect(r.ok && r.error).toBe(raw);
  });
});

describe('extractError', () => {
  test('first candidate decides: an invalid structuredContent error hides a valid text one', () => {
    const r = { isError: true, structuredContent: { adcp_error: { code: 5 } }, content: [text(JSON.stringify({ adcp_error: B }))] };
    expect(extractError(result(r))).toBeNull();
  });

  test('returns error, source and pointer', () => {
    expect(extractError(rpc({ code: -32028, data: { adcp_error: C } }))).toEqual({
      error: C,
      source: 'jsonrpc_error',
      pointer: '/error/data/adcp_error',
    });
    expect(extractFromMessage({ result: { isError: 'true', structuredContent: { adcp_error: A } } })?.error).toBe(A);
  });
});

describe('recovery and action', () => {
  test.for([
    [{ code: 'RATE_LIMITED', recovery: 'correctable' }, 'correctable'],
    [{ code: 'RATE_LIMITED', recovery: 'someday' }, 'terminal'],
    [{ code: 'RATE_LIMITED', recovery: '' }, 'terminal'],
    [{ code: 'RATE_LIMITED', recovery: 3 }, 'terminal'],
    [{ code: 'RATE_LIMITED' }, 'transient'],
    [{ code: 'RATE_LIMITED', recovery: null }, 'transient'],
    [{ code: 'BUDGET_TOO_LOW' }, 'correctable'],
    [{ code: 'ACCOUNT_SUSPENDED' }, 'terminal'],
    [{ code: 'ACCOUNT_MOVED' }, 'correctable'],
    [{ code: 'ACCOUNT_IDENTITY_CONFLICT' }, 'correctable'],
    [{ code: 'AUTH_MISSING' }, 'correctable'],
    [{ code: 'X_VENDOR_NEW' }, 'terminal'],
    [{ code: 'constructor' }, 'terminal'],
    [{ code: '__proto__' }, 'terminal'],
  ] as const)('%j → %s', ([error, want]) => {
    expect(effectiveRecovery(error as Record<string, unknown>)).toBe(want);
  });

  test('clientAction', () => {
    expect(clientAction(null)).toBe('generic_error');
    expect(clientAction({ code: 'RATE_LIMITED' })).toBe('retry');
    expect(clientAction({ code: 'X', recovery: 'correctable' })).toBe('surface_to_caller');
    expect(clientAction({ code: 'X' })).toBe('escalate_to_human');
  });

  test.for([
    [0, 1],
    [-3, 1],
    [0.2, 1],
    [2.5, 3],
    [5, 5],
    [3600, 3600],
    [3600.5, 3600],
    [86400, 3600],
    ['5', undefined],
    [null, undefined],
    [true, undefined],
  ] as const)('retry_after %j → %j', ([raw, want]) => {
    expect(clientRetryAfter({ code: 'RATE_LIMITED', retry_after: raw })).toBe(want);
  });

  test('retry_after absent / non-finite → undefined', () => {
    expect(clientRetryAfter({ code: 'X' })).toBeUndefined();
    expect(clientRetryAfter({ code: 'X', retry_after: Number.POSITIVE_INFINITY })).toBeUndefined();
    expect(clientRetryAfter({ code: 'X', retry_after: Number.NaN })).toBeUndefined();
  });

  test('reserved JSON-RPC codes', () => {
    expect(RESERVED_JSONRPC_CODES).toEqual({ [-32029]: 'RATE_LIMITED', [-32028]: 'AUTH_MISSING', [-32027]: 'SERVICE_UNAVAILABLE' });
  });
});
