// downReason and stderrGist are pure functions of a recorded capture: the failures a live test cannot make
// on a loopback machine (401, 405, a temporary DNS failure, a blocked port, a connect timeout), the stderr
// of crashes in other languages, and recordings whose facts are not the shape they should be.
import { describe, expect, test } from 'vitest';
import { downReason, stderrGist } from '../../harness/capture/down-reason.ts';
import type { AgentCapture, TransportFailure } from '../../harness/record/exchange.ts';

const agent = (transport: 'http' | 'stdio'): AgentCapture['agent'] => ({ name: 'a', transport, production: false, sandbox: false });
const http = (failure: TransportFailure) => downReason({ agent: agent('http'), initialize: { ok: false, failure } });
const stdio = (failure: TransportFailure, facts: Partial<NonNullable<AgentCapture['stdio']>>) =>
  downReason({
    agent: agent('stdio'),
    initialize: { ok: false, failure },
    stdio: { spawned: true, stdoutJunk: [], stderrTail: '', ...facts },
  });

describe('stderrGist: what a crashed server said, in one line', () => {
  test("a Node stack: its last Error line, not the source line at the stack's head", () => {
    const stderr = [
      'file:///srv/server.mjs:3',
      'throw new Error("boom");',
      '      ^',
      '',
      'Error: boom',
      '    at file:///srv/server.mjs:3:7',
      '',
      'Node.js v20.20.2',
    ].join('\n');
    expect(stderrGist(stderr)).toBe('Error: boom');
  });

  test('a Node ESM resolution error with its code in brackets', () => {
    const stderr =
      "node:internal/modules/esm/resolve:838\n  throw new ERR_MODULE_NOT_FOUND(packageName);\n        ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'express' imported from /srv/server.js\n    at packageResolve (node:internal)\n";
    expect(stderrGist(stderr)).toBe("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'express' imported from /srv/server.js");
  });

  test('a Python traceback: its last line', () => {
    const stderr =
      'Traceback (most recent call last):\n  File "server.py", line 1, in <module>\n    import adcp\nModuleNotFoundError: No module named \'adcp\'\n';
    expect(stderrGist(stderr)).toBe("ModuleNotFoundError: No module named 'adcp'");
  });

  test('the LAST error line when there are several; FATAL and panic lines count', () => {
    expect(stderrGist('Error: first\nTypeError: second\n')).toBe('TypeError: second');
    expect(stderrGist('loading\nFATAL: SELLER_TOKEN is not set\n')).toBe('FATAL: SELLER_TOKEN is not set');
    expect(stderrGist('panic: runtime error: index out of range\ngoroutine 1 [running]:\n')).toBe(
      'panic: runtime error: index out of range',
    );
  });

  test('no error line: the last meaningful lines; nothing: undefined', () => {
    expect(stderrGist('one\ntwo\nthree\nfour\n    at frame (x.js:1:1)\n')).toBe('two | three | four');
    expect(stderrGist(' \n\n')).toBeUndefined();
  });
});

describe('downReason from recorded failures', () => {
  test('HTTP 401: credentials, with the challenge kept', () => {
    const d = http({
      kind: 'http-status',
      message: 'initialize got HTTP 401 (application/json); WWW-Authenticate: Bearer realm="x"',
      httpStatus: 401,
    });
    expect(d).toMatchObject({ cause: 'http-status', detail: 'initialize got HTTP 401 Unauthorized (WWW-Authenticate: Bearer realm="x")' });
    expect(d?.fix).toContain('credentials');
  });

  test('HTTP 405: the URL is not the MCP endpoint', () => {
    const d = http({ kind: 'http-status', message: 'initialize got HTTP 405 (text/html)', httpStatus: 405 });
    expect(d).toMatchObject({ cause: 'http-status', detail: 'initialize got HTTP 405 Method Not Allowed' });
    expect(d?.fix).toContain('MCP endpoint');
  });

  test('HTTP 200 with a web page: not MCP at that URL (a protocol failure, not a status one)', () => {
    const d = http({
      kind: 'http-status',
      message: 'HTTP 200 with content type text/html; charset=utf-8: <!DOCTYPE html>',
      httpStatus: 200,
    });
    expect(d).toMatchObject({
      cause: 'protocol',
      detail: 'initialize got HTTP 200 with content type text/html; charset=utf-8, not JSON or an event stream: <!DOCTYPE html>',
    });
    expect(d?.fix).toContain('MCP endpoint');
  });

  test('a temporary DNS failure says so', () => {
    const d = http({ kind: 'connect', message: 'EAI_AGAIN: fetch failed: getaddrinfo EAI_AGAIN seller.example.com' });
    expect(d).toMatchObject({ cause: 'dns', detail: expect.stringContaining('seller.example.com could not be resolved right now') });
  });

  test('a port fetch blocks (9): no request was sent, and the fix is another port', () => {
    const d = http({ kind: 'connect', message: 'fetch failed: bad port' });
    expect(d?.detail).toContain('blocked port');
    expect(d?.fix).toContain('another port');
  });

  test('a TCP connect timeout is a timeout of the connect phase', () => {
    const d = http({
      kind: 'connect',
      message: 'UND_ERR_CONNECT_TIMEOUT: fetch failed: Connect Timeout Error (attempted address: 10.0.0.1:443, timeout: 10000ms)',
    });
    expect(d).toMatchObject({ cause: 'timeout', detail: expect.stringMatching(/^connect: /) });
  });

  test('an untrusted certificate recorded by code', () => {
    const d = http({ kind: 'connect', message: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE: fetch failed: unable to verify the first certificate' });
    expect(d).toMatchObject({
      cause: 'tls',
      detail: 'TLS handshake failed (UNABLE_TO_VERIFY_LEAF_SIGNATURE): unable to verify the first certificate',
    });
    expect(d?.fix).toContain('NODE_EXTRA_CA_CERTS');
  });

  test('stdout junk before a failed handshake: the fix sends logs to stderr', () => {
    const d = stdio({ kind: 'protocol', message: 'Unexpected token' }, { stdoutJunk: ['Listening on 3000'] });
    expect(d).toMatchObject({ cause: 'protocol', detail: expect.stringContaining('(first: Listening on 3000)') });
    expect(d?.fix).toContain('stderr');
  });

  test('an answered initialize is not down', () => {
    expect(
      downReason({ agent: agent('http'), initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: {}, durationMs: 1 } }),
    ).toBeUndefined();
  });

  test('a recording whose facts have the wrong shape still yields a reason, never a throw', () => {
    const hostile = {
      agent: agent('stdio'),
      initialize: { ok: false, failure: { kind: 'closed', message: 42 } },
      stdio: { spawned: true, stdoutJunk: 'x', stderrTail: { not: 'a string' }, exit: { code: 1, signal: null } },
    } as unknown as AgentCapture;
    expect(downReason(hostile)).toEqual({
      cause: 'exited',
      detail: 'the server exited with code 1 before answering initialize',
      fix: expect.any(String),
    });
  });
});
