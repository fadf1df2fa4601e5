// Answers that are not answers must never be recorded as ones: an SSE event the stream never closed, an
// HTTP 4xx/5xx to initialize, a stdio command that cannot start or dies at once. Each is a live session
// (loopback HTTP / real child processes) and each must fail with a message that shows what the seller said.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { initializeResult, json, result, type RpcMessage, startRpcHttp } from '../hostile/rpc-http.ts';
import { httpAgent, probes, stdioAgent, TOKEN } from './agents.ts';

const RPC_STDIO = fileURLToPath(new URL('../hostile/servers/rpc-stdio.mjs', import.meta.url));
const timeouts = { connectMs: 5_000, callMs: 8_000, agentMs: 40_000 };

/** One tools/call against a server whose tools/call answer is `body` written as an SSE stream. */
async function sseCall(body: (m: RpcMessage) => string): Promise<AgentCapture> {
  const server = await startRpcHttp((m, res) => {
    if (m.method !== 'tools/call') return false;
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end(body(m));
    return true;
  });
  try {
    return await captureAgent(httpAgent(server.url, { timeouts, probes: probes('get_adcp_capabilities') }));
  } finally {
    await server.close();
  }
}

describe('SSE: an event the stream never closed with a blank line is not an answer', () => {
  test.for([
    ['no newline at all', ''],
    ['one newline, no blank line', '\n'],
  ])('tools/call answered by a final event with %s: a protocol failure at once, not a result', async ([, tail]) => {
    const capture = await sseCall((m) => `event: message\ndata: ${JSON.stringify(result(m.id))}${tail}`);
    const x = capture.exchanges[0]!;
    expect(x.outcome).toMatchObject({
      kind: 'transport-error',
      failure: { kind: 'protocol', message: expect.stringContaining('final SSE event was never terminated by a blank line') },
    });
    expect(x.durationMs).toBeLessThan(timeouts.callMs); // at the stream's end, not at the call timeout
  });

  test('initialize answered by an unterminated event: initialize fails', async () => {
    const server = await startRpcHttp((m, res) => {
      if (m.method !== 'initialize') return false;
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(initializeResult(m))}`);
      return true;
    });
    try {
      const capture = await captureAgent(httpAgent(server.url, { timeouts }));
      expect(capture.initialize).toMatchObject({
        ok: false,
        failure: { kind: 'protocol', message: expect.stringContaining('never terminated by a blank line') },
      });
      expect(capture.toolsList).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  test('a stream that ends with no answer at all fails the call as closed when it ends', async () => {
    const capture = await sseCall(() => ': keep-alive\n\n');
    const x = capture.exchanges[0]!;
    expect(x.outcome).toMatchObject({
      kind: 'transport-error',
      failure: { kind: 'closed', message: expect.stringContaining('ended without an answer') },
    });
    expect(x.durationMs).toBeLessThan(timeouts.callMs);
  });
});

describe('HTTP: a 4xx/5xx answer to initialize fails initialize with what the server said', () => {
  test.for([401, 403, 404, 500, 503])('HTTP %i', async (status) => {
    const server = await startRpcHttp((m, res) => {
      if (m.method !== 'initialize') return false;
      const challenge: Record<string, string> =
        status === 401 ? { 'www-authenticate': `Bearer error="invalid_token", error_description="token ${TOKEN} expired"` } : {};
      json(res, { error: `refused (${status}) for token ${TOKEN}` }, status, challenge);
      return true;
    });
    try {
      const capture = await captureAgent(httpAgent(server.url, { timeouts }));
      expect(capture.initialize).toMatchObject({
        ok: false,
        failure: { kind: 'http-status', httpStatus: status, message: expect.stringContaining(`HTTP ${status}`) },
      });
      const message = capture.initialize.ok ? '' : capture.initialize.failure.message;
      expect(message).toContain(`body: {"error":"refused (${status}) for token [REDACTED]"}`);
      const observation = capture.http?.observations.find((o) => o.method === 'initialize');
      expect(observation).toMatchObject({ status, bodyExcerpt: `{"error":"refused (${status}) for token [REDACTED]"}` });
      if (status === 401) {
        expect(message).toContain('WWW-Authenticate: Bearer error="invalid_token"');
        expect(observation?.wwwAuthenticate).toBe('Bearer error="invalid_token", error_description="token [REDACTED] expired"');
      } else {
        expect(observation?.wwwAuthenticate).toBeUndefined();
      }
      expect(capture.toolsList).toBeUndefined();
      expect(capture.exchanges).toEqual([]);
      expect(JSON.stringify(capture)).not.toContain(TOKEN);
    } finally {
      await server.close();
    }
  });

  test('a 401 without WWW-Authenticate says so', async () => {
    const server = await startRpcHttp((m, res) => {
      if (m.method !== 'initialize') return false;
      res.writeHead(401).end();
      return true;
    });
    try {
      const capture = await captureAgent(httpAgent(server.url, { timeouts }));
      expect(capture.initialize).toMatchObject({
        ok: false,
        failure: { httpStatus: 401, message: expect.stringContaining('no WWW-Authenticate header') },
      });
    } finally {
      await server.close();
    }
  });
});

describe('stdio: a command that cannot start, or dies at once', () => {
  test('not found: a readable connect failure, the process never spawned', async () => {
    const secret = 'cmd-secret-0123456789';
    const capture = await captureAgent(stdioAgent('x', { command: `/nonexistent/${secret}/adcp-seller`, args: [], secrets: [secret] }));
    expect(capture.initialize).toMatchObject({
      ok: false,
      failure: {
        kind: 'connect',
        message: 'ENOENT: the server could not be started: the command /nonexistent/[REDACTED]/adcp-seller was not found',
      },
    });
    expect(capture.stdio).toMatchObject({ spawned: false, stdoutJunk: [] });
    expect(JSON.stringify(capture)).not.toContain(secret);
  });

  test('not executable: says so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adcp-conformance-test-'));
    try {
      const file = join(dir, 'seller.sh');
      await writeFile(file, '#!/bin/sh\necho hi\n');
      await chmod(file, 0o644);
      const capture = await captureAgent(stdioAgent('x', { command: file, args: [] }));
      expect(capture.initialize).toMatchObject({
        ok: false,
        failure: {
          kind: 'connect',
          message: `EACCES: the server could not be started: the command ${file} is not executable (permission denied)`,
        },
      });
      expect(capture.stdio?.spawned).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a working directory that does not exist is named as such (not as a missing command)', async () => {
    const capture = await captureAgent(stdioAgent('rpc', { command: process.execPath, args: [RPC_STDIO], cwd: '/nonexistent/adcp-cwd' }));
    expect(capture.initialize).toMatchObject({
      ok: false,
      failure: { kind: 'connect', message: expect.stringContaining('working directory /nonexistent/adcp-cwd does not exist') },
    });
  });

  test('exits at once printing FATAL on stderr: initialize fails quoting it, the tail is redacted, nothing was judged', async () => {
    const token = 'seller-token-ABCDEF123456';
    const capture = await captureAgent(
      stdioAgent('rpc', {
        command: process.execPath,
        args: [RPC_STDIO, 'fatal'],
        env: { SELLER_TOKEN: token },
        secrets: [token],
        timeouts,
      }),
    );
    expect(capture.initialize).toMatchObject({
      ok: false,
      failure: {
        kind: 'closed',
        message: expect.stringMatching(/exited \(code 1\) before answering initialize; stderr: FATAL: SELLER_API_KEY is not set/),
      },
    });
    expect(capture.stdio).toMatchObject({ spawned: true, exit: { code: 1, signal: null }, stdoutJunk: [] });
    expect(capture.stdio?.stderrTail).toContain('FATAL: SELLER_API_KEY is not set');
    expect(capture.stdio?.stderrTail).toContain('[REDACTED]');
    expect(JSON.stringify(capture)).not.toContain(token);
    expect(capture.toolsList).toBeUndefined();
    expect(capture.exchanges).toEqual([]);
  });
});
