// Live streamable-HTTP sessions over loopback: the official-SDK seller and the hostile one, in JSON and
// SSE response modes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { startHostileHttp } from '../fixtures/servers/hostile-http.mjs';
import { startSdkHttp } from '../fixtures/servers/sdk-seller.mjs';
import { byTool, httpAgent, probeCalls, probes, TOKEN } from './agents.ts';

const failureOf = (x: Exchange | undefined) => {
  if (x?.outcome.kind !== 'transport-error') throw new Error(`expected a transport error, got ${JSON.stringify(x?.outcome)}`);
  return x.outcome.failure;
};

describe.each(['json', 'sse'] as const)('http (%s): official SDK seller', (mode) => {
  test('default probes are captured with HTTP facts and the session id', async () => {
    const server = await startSdkHttp({ json: mode === 'json' });
    try {
      const capture = await captureAgent(httpAgent(server.url, { name: `sdk-${mode}` }));
      expect(capture.initialize).toMatchObject({ ok: true, protocolVersion: '2025-11-25', serverInfo: { name: 'sdk-seller' } });
      expect(probeCalls(capture.exchanges).map((x) => `${x.tool}:${x.intent}`)).toEqual([
        'get_adcp_capabilities:valid',
        'get_products:valid',
        'get_products:invalid',
      ]);
      const contentType = mode === 'json' ? 'application/json' : 'text/event-stream';
      // The discovery calls without credentials (public-discovery) run in a session of their own.
      const ownSession = new Set(['public-discovery', 'unauthenticated', 'invalid-credentials']);
      for (const x of capture.exchanges) {
        const sessionId = ownSession.has(x.scenario?.name ?? '')
          ? expect.not.stringMatching(capture.http!.sessionId!)
          : capture.http?.sessionId;
        expect(x.http).toMatchObject({ method: 'tools/call', status: 200, contentType, sessionId });
        expect(x.outcome.kind).toBe('result');
      }
      expect(capture.http?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(capture.http?.observations[0]).toMatchObject({ method: 'initialize', status: 200 });
      expect(capture.protocolViolations).toEqual([]);
    } finally {
      await server.close();
    }
  });

  test('unknown result keys survive', async () => {
    const server = await startSdkHttp({ json: mode === 'json' });
    try {
      const capture = await captureAgent(httpAgent(server.url, { probes: probes('odd_result') }));
      // The seller lists get_adcp_capabilities: the AdCP handshake goes first (issue 18), so the probe is found by name.
      const odd = capture.exchanges.find((x) => x.tool === 'odd_result');
      expect(odd?.outcome).toMatchObject({ kind: 'result', result: { x_unknown: { kept: [1, 'two'] } } });
    } finally {
      await server.close();
    }
  });
});

describe.each(['json', 'sse'] as const)('http (%s): hostile seller', (mode) => {
  let server: Awaited<ReturnType<typeof startHostileHttp>>;
  let capture: AgentCapture;
  beforeAll(async () => {
    server = await startHostileHttp({ mode });
    capture = await captureAgent(
      httpAgent(server.url, {
        name: `hostile-${mode}`,
        probes: probes(
          'odd_result',
          'my_tool',
          'hang',
          'get_adcp_capabilities',
          'huge',
          'get_adcp_capabilities',
          'html500',
          'html200',
          'echo_auth',
          'echo_auth_http',
          'bad_envelope',
          'crash',
          'get_adcp_capabilities',
        ),
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  test('tools/list: two pages, raw tools, the $id outputSchema kept', () => {
    expect(capture.toolsList).toMatchObject({ ok: true, pages: 2 });
    expect(byTool(capture.exchanges, 'my_tool')[0]?.advertised?.outputSchema).toMatchObject({ $id: 'my_tool:output' });
  });

  test('odd types, unknown keys and __proto__ keys are preserved', () => {
    const x = byTool(capture.exchanges, 'odd_result')[0]!;
    expect(x.outcome).toMatchObject({
      kind: 'result',
      result: { isError: 'true', x_unknown: { nested: [1, 'two', null] }, content: [{ x_block_extra: 7 }] },
    });
    const sc = (x.outcome as { result: { structuredContent: object } }).result.structuredContent;
    expect(Object.keys(sc)).toEqual(['__proto__', 'constructor', 'a']);
  });

  test('a hung call times out at the call timeout; the next probe answers', () => {
    const hang = byTool(capture.exchanges, 'hang')[0];
    expect(failureOf(hang).kind).toBe('timeout');
    expect(capture.exchanges[capture.exchanges.indexOf(hang!) + 1]).toMatchObject({
      tool: 'get_adcp_capabilities',
      outcome: { kind: 'result' },
    });
  });

  test('a 200 MB body is cut at the cap (oversize, bytesSeen ≈ cap); the session goes on', () => {
    const huge = byTool(capture.exchanges, 'huge')[0];
    const f = failureOf(huge);
    expect(f.kind).toBe('oversize');
    expect(f.bytesSeen).toBeGreaterThan(1_114_112);
    expect(f.bytesSeen).toBeLessThan(1_114_112 + 1024 * 1024);
    expect(capture.exchanges[capture.exchanges.indexOf(huge!) + 1]).toMatchObject({
      tool: 'get_adcp_capabilities',
      outcome: { kind: 'result' },
    });
  });

  test('HTML with status 500, and HTML with status 200, are http-status failures', () => {
    expect(failureOf(byTool(capture.exchanges, 'html500')[0])).toMatchObject({
      kind: 'http-status',
      httpStatus: 500,
      contentType: 'text/html; charset=utf-8',
    });
    expect(failureOf(byTool(capture.exchanges, 'html200')[0])).toMatchObject({
      kind: 'http-status',
      httpStatus: 200,
      contentType: 'text/html',
    });
    expect(byTool(capture.exchanges, 'html500')[0]?.http).toMatchObject({ status: 500 });
  });

  test('a malformed answer is a protocol failure; a dropped connection is closed', () => {
    expect(failureOf(byTool(capture.exchanges, 'bad_envelope')[0]).kind).toBe('protocol');
    expect(failureOf(byTool(capture.exchanges, 'crash')[0]).kind).toBe('closed');
    expect(probeCalls(capture.exchanges).at(-1)).toMatchObject({ tool: 'get_adcp_capabilities', outcome: { kind: 'result' } });
  });

  test('the token was sent, and appears nowhere in the capture (results, failure messages)', () => {
    expect(server.seen.authorization).toContain(`Bearer ${TOKEN}`);
    expect(failureOf(byTool(capture.exchanges, 'echo_auth_http')[0])).toMatchObject({
      kind: 'http-status',
      httpStatus: 403,
      message: expect.stringContaining('[REDACTED]'),
    });
    expect(byTool(capture.exchanges, 'echo_auth')[0]?.outcome).toMatchObject({
      kind: 'result',
      result: { content: [{ text: 'unauthorized: you sent [REDACTED]' }] },
    });
    expect(JSON.stringify(capture)).not.toContain(TOKEN);
  });

  test('every request after initialize carried the session id the server assigned', () => {
    const assigned = capture.http?.sessionId;
    expect(assigned).toBeTruthy();
    // The agent's own session: the requests with its token (the discovery calls without credentials run in
    // a session of their own).
    const own = server.seen.sessionIds.filter((_, i) => server.seen.authorization[i] === `Bearer ${TOKEN}`);
    expect(own.length).toBeGreaterThan(2);
    expect(own.slice(1).every((id) => id === assigned)).toBe(true);
  });
});

describe('http: connection failures', () => {
  test('nothing listening: initialize fails with a connect failure (retried once), never a throw', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const capture = await captureAgent(httpAgent(`http://127.0.0.1:${port}/mcp`));
    expect(capture.initialize).toMatchObject({ ok: false, failure: { kind: 'connect', message: expect.stringContaining('ECONNREFUSED') } });
    expect(capture.toolsList).toBeUndefined();
  });

  test('a cross-origin redirect is not followed: the credentials never reach the other origin', async () => {
    const other: string[] = [];
    const target = createServer((req, res) => {
      other.push(req.headers.authorization ?? '(none)');
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const targetPort = (target.address() as AddressInfo).port;
    const redirector: Server = createServer((_req, res) => {
      res.writeHead(307, { location: `http://localhost:${targetPort}/mcp` }).end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    try {
      const capture = await captureAgent(httpAgent(`http://127.0.0.1:${(redirector.address() as AddressInfo).port}/mcp`));
      expect(capture.initialize).toMatchObject({ ok: false, failure: { kind: 'http-status', httpStatus: 307 } });
      expect(other).toEqual([]);
    } finally {
      redirector.closeAllConnections();
      target.closeAllConnections();
      await new Promise<void>((r) => redirector.close(() => r()));
      await new Promise<void>((r) => target.close(() => r()));
    }
  });
});

type RpcMessage = { id?: unknown; method?: string; params?: { protocolVersion?: string } };

/** A loopback server that hands each POSTed JSON-RPC message to `handle` (other methods get 405). */
async function rpcServer(handle: (m: RpcMessage, res: import('node:http').ServerResponse) => void): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      handle(JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcMessage, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

describe('http: server-initiated requests on the call stream', () => {
  test('a server request reusing our call id: the POST of our answer to it is not the call (a 500 on it does not fail the call)', async () => {
    let stream: import('node:http').ServerResponse | undefined;
    let callId: unknown;
    const server = await rpcServer((m, res) => {
      const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (m.method === 'initialize') {
        return json({
          jsonrpc: '2.0',
          id: m.id,
          result: { protocolVersion: m.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'pinger', version: '1' } },
        });
      }
      if (m.method === 'tools/list')
        return json({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'get_adcp_capabilities', inputSchema: { type: 'object' } }] } });
      if (m.method === 'tools/call') {
        callId = m.id;
        stream = res;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, method: 'ping' })}\n\n`);
        return;
      }
      if (m.method === undefined && m.id === callId && stream) {
        // the client's answer to our ping: refuse it, then answer the call on its stream
        res.writeHead(500, { 'content-type': 'text/plain' }).end('no thanks');
        stream.end(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: callId, result: { content: [], structuredContent: { ok: true } } })}\n\n`,
        );
        return;
      }
      res.writeHead(202).end();
    });
    try {
      const capture = await captureAgent(
        httpAgent(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, { probes: probes('get_adcp_capabilities') }),
      );
      const x = capture.exchanges[0]!;
      expect(x.outcome).toMatchObject({ kind: 'result', result: { structuredContent: { ok: true } } });
      expect(x.http).toMatchObject({ method: 'tools/call', status: 200, contentType: 'text/event-stream' });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('http: a hung handshake notification', () => {
  test('initialize answered, notifications/initialized never answered: initialize fails at the connect timeout, not call timeout later', async () => {
    const server = await rpcServer((m, res) => {
      if (m.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: m.id,
            result: { protocolVersion: m.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } },
          }),
        );
      }
      // anything else: never answered
    });
    try {
      const t0 = performance.now();
      const capture = await captureAgent(
        httpAgent(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, {
          timeouts: { connectMs: 1_000, callMs: 20_000, agentMs: 50_000 },
        }),
      );
      expect(capture.initialize).toMatchObject({
        ok: false,
        failure: { kind: 'timeout', message: expect.stringContaining('notifications/initialized') },
      });
      // Cut by the 1 s connect timeout, not the 20 s call timeout (generous margin for a loaded machine).
      expect(performance.now() - t0).toBeLessThan(15_000);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
