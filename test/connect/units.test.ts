// Pure pieces of the connect/capture stages: redaction, the permissive result schema, the SSE tap,
// the failure classifier, and correlation ids.
import { describe, expect, test } from 'vitest';
import { redact, redactDeep, REDACTED } from '../../harness/config/redact.ts';
import { withContext } from '../../harness/capture/probes.ts';
import { classify, oneLine } from '../../harness/connect/failure.ts';
import { PermissiveResult } from '../../harness/connect/session.ts';
import { SseTap } from '../../harness/connect/sse-tap.ts';

describe('redact', () => {
  test('replaces every occurrence, longest secret first; ignores values too short to be secrets', () => {
    expect(redact('a Bearer abcdef1234 b abcdef1234', ['abcdef1234', 'Bearer abcdef1234'])).toBe(`a ${REDACTED} b ${REDACTED}`);
    expect(redact('1 2 3', ['1', ''])).toBe('1 2 3');
  });

  test('redactDeep returns new JSON (keys too), keeps __proto__ as a data key, never mutates', () => {
    const input = JSON.parse('{"__proto__":{"t":"xx-secret-xx"},"list":["secret-1234"],"secret-1234":1,"n":2}');
    const before = JSON.stringify(input);
    const out = redactDeep(input, ['secret-1234', 'xx-secret-xx']) as Record<string, unknown>;
    expect(JSON.stringify(input)).toBe(before);
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"t":"${REDACTED}"},"list":["${REDACTED}"],"${REDACTED}":1,"n":2}`);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe('PermissiveResult', () => {
  test('keeps unknown keys and odd types untouched (what the SDK would strip or reject)', () => {
    const raw = { isError: 'true', content: 'not-an-array', x_unknown: { deep: [1] }, structuredContent: [1, 2] };
    const parsed = PermissiveResult.safeParse(raw);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toBe(raw);
    expect(parsed.data).toEqual({ isError: 'true', content: 'not-an-array', x_unknown: { deep: [1] }, structuredContent: [1, 2] });
  });
});

describe('SseTap', () => {
  test('admits data of message events across chunk boundaries, CRLF and multi-line data; skips comments and other events', () => {
    const got: string[] = [];
    let forwarded = '';
    const tap = new SseTap((d) => got.push(d) > 0);
    const enc = new TextEncoder();
    const stream = ': keep-alive\r\nid: 1\r\ndata: {"a":\r\n\r\nevent: ping\ndata: x\n\nevent: message\ndata: {"b":\ndata: 2}\n\ndata: é';
    for (const ch of enc.encode(stream)) forwarded += tap.push(new Uint8Array([ch])); // one byte at a time
    // The last event has no closing blank line: it is not dispatched, and end() hands it back as unterminated.
    expect(tap.end()).toBe('é');
    expect(got).toEqual(['{"a":', '{"b":\n2}']);
    // What the SDK reads: the admitted events re-serialized (the ping event passes untouched; comments are dropped).
    expect(forwarded).toBe('id: 1\ndata: {"a":\n\nevent: ping\ndata: x\n\nevent: message\ndata: {"b":\ndata: 2}\n\n');
  });

  test('an event the gate refuses never reaches the SDK; a stream ending on a closed event has nothing unterminated', () => {
    const tap = new SseTap((d) => d !== 'drop');
    const out = tap.push(new TextEncoder().encode('data: drop\n\ndata: keep\n\n'));
    expect(out).toBe('data: keep\n\n');
    expect(tap.end()).toBeUndefined();
  });

  test('a final event closed by one newline only (no blank line) is unterminated, CR line ends too', () => {
    for (const tail of ['data: {"x":1}\n', 'data: {"x":1}\r', 'data: {"x":1}\r\n']) {
      const got: string[] = [];
      const tap = new SseTap((d) => got.push(d) > 0);
      tap.push(new TextEncoder().encode(tail));
      expect(tap.end()).toBe('{"x":1}');
      expect(got).toEqual([]);
    }
  });
});

describe('failures', () => {
  test('oneLine flattens control and bidi characters and redacts before truncating', () => {
    expect(oneLine('a\nb\u202Ec\u0000d', [])).toBe('a b c d');
    const secret = 'k'.repeat(20);
    expect(oneLine(`${'x'.repeat(290)}${secret}`, [secret])).not.toContain('kkkk');
  });

  test('classify maps SDK and socket errors to kinds', () => {
    const mcp = (code: number) => Object.assign(new Error('x'), { name: 'McpError', code });
    expect(classify(mcp(-32001), []).kind).toBe('timeout');
    expect(classify(mcp(-32000), []).kind).toBe('closed');
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    expect(classify(refused, [], 'connect').kind).toBe('connect');
    expect(classify(new Error("Server's protocol version is not supported: 1999-01-01"), [], 'connect').kind).toBe('protocol');
    expect(classify(new Error('token abcd-1234 leaked'), ['abcd-1234']).message).toBe(`token ${REDACTED} leaked`);
  });
});

describe('withContext', () => {
  test('returns new objects and keeps other context keys', () => {
    const args = { a: 1, context: { trace: 't' } };
    const out = withContext(args, 'id-1');
    expect(out).toEqual({ a: 1, context: { trace: 't', correlation_id: 'id-1' } });
    expect(args).toEqual({ a: 1, context: { trace: 't' } });
    expect(withContext({ context: 'x' }, 'id-2')).toEqual({ context: { correlation_id: 'id-2' } });
  });
});
