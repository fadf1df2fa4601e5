// The storyboard proxy on its own, over real loopback HTTP: what it answers itself, what it forwards
// (and with whose credentials), what it refuses, and that a hung or oversized answer costs our timeout
// and cap, once — never the runner's 60 s, never a second forward.
import { afterEach, describe, expect, test } from 'vitest';
import {
  PROXY_MARK,
  startStoryboardProxy,
  type Forward,
  type ForwardRequest,
  type ProxiedCall,
  type StoryboardProxy,
} from '../../harness/storyboards/proxy.ts';

const open: StoryboardProxy[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

async function proxyWith(forward: Forward, over: Partial<Parameters<typeof startStoryboardProxy>[0]> = {}) {
  const seen: ProxiedCall[] = [];
  const proxy = await startStoryboardProxy({
    agent: 'unit',
    handshake: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'agent', version: '9' } },
    tools: [{ name: 'get_products', inputSchema: { type: 'object' } }],
    forward,
    onCall: (c) => seen.push(c),
    callTimeoutMs: 800,
    maxResponseBytes: 10_000,
    ...over,
  });
  open.push(proxy);
  return { proxy, seen };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const call = (id: number, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_products', arguments: args },
});
const answer = (structuredContent: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 77,
  result: { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent },
});

describe('storyboard proxy', () => {
  test('answers initialize itself with the agent handshake, forwards tools/call and records it as an Exchange', async () => {
    const got: ForwardRequest[] = [];
    const { proxy, seen } = await proxyWith(async (r) => {
      got.push(r);
      return { kind: 'answer', message: answer({ products: [] }), bytes: 123 };
    });
    const init = await (
      await post(proxy.url, {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })
    ).json();
    expect(init).toMatchObject({ id: 0, result: { protocolVersion: '2025-06-18', serverInfo: { name: 'agent', version: '9' } } });
    expect((await post(proxy.url, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);

    const res = await post(proxy.url, call(5, { brief: 'x', context: { correlation_id: 'c1' } }), {
      authorization: `Bearer ${proxy.token}`,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ jsonrpc: '2.0', id: 5, result: answer({ products: [] }).result }); // the runner's id, the agent's result
    expect(got).toHaveLength(1); // initialize and the notification were never forwarded
    expect(got[0]).toMatchObject({ method: 'tools/call', auth: { kind: 'configured' }, params: { name: 'get_products' } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.exchange).toMatchObject({
      agent: 'unit',
      tool: 'get_products',
      intent: 'valid',
      request: { name: 'get_products', arguments: { brief: 'x', context: { correlation_id: 'c1' } } },
      outcome: { kind: 'result' },
      protocolVersion: '2025-06-18',
      advertised: { inputSchema: { type: 'object' } },
      bytes: 123,
    });
  });

  test('reads whose credentials a request carries: ours, none, or someone else’s', async () => {
    const auths: string[] = [];
    const { proxy } = await proxyWith(async (r) => {
      auths.push(r.auth.kind === 'override' ? `override:${r.auth.authorization}` : r.auth.kind);
      return { kind: 'answer', message: answer({}) };
    });
    await post(proxy.url, call(1, { n: 1 }), { authorization: `Bearer ${proxy.token}` });
    await post(proxy.url, call(2, { n: 2 }));
    await post(proxy.url, call(3, { n: 3 }), { authorization: 'Bearer invalid-0123' });
    expect(auths).toEqual(['configured', 'none', 'override:Bearer invalid-0123']);
  });

  test('relays an HTTP 401 and its WWW-Authenticate from the agent as they were', async () => {
    const { proxy, seen } = await proxyWith(async () => ({
      kind: 'failure',
      failure: { kind: 'http-status', message: 'initialize got HTTP 401', httpStatus: 401 },
      http: {
        method: 'initialize',
        status: 401,
        contentType: 'application/json',
        wwwAuthenticate: 'Bearer realm="x", error="invalid_token"',
      },
    }));
    const res = await post(proxy.url, call(9));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="x", error="invalid_token"');
    expect(seen[0]!.exchange!.outcome).toMatchObject({ kind: 'transport-error', failure: { kind: 'http-status', httpStatus: 401 } });
  });

  test('a hung call costs our timeout once: answered with a marked JSON-RPC error, and the runner’s retry is not forwarded', async () => {
    let forwards = 0;
    let aborted = 0;
    const { proxy, seen } = await proxyWith(
      (r) =>
        new Promise((resolve) => {
          forwards++;
          r.signal.addEventListener('abort', () => {
            aborted++;
            resolve({ kind: 'failure', failure: { kind: 'timeout', message: 'aborted' } });
          });
        }),
      { callTimeoutMs: 600 },
    );
    const t0 = performance.now();
    const first = (await (await post(proxy.url, call(1, { a: 1 }))).json()) as { error: { code: number; message: string } };
    const firstMs = performance.now() - t0;
    const retry = (await (await post(proxy.url, call(2, { a: 1 }))).json()) as { error: { code: number; message: string } };
    expect(first.error.code).toBe(-32001);
    expect(first.error.message.startsWith(PROXY_MARK)).toBe(true);
    expect(retry.error.code).toBe(-32001);
    expect(firstMs).toBeGreaterThanOrEqual(550);
    expect(firstMs).toBeLessThan(600 + 3000); // our timeout (plus scheduling slack), never the runner’s 60 s
    expect(forwards).toBe(1); // the repeat was answered with the first failure, not forwarded
    expect(aborted).toBe(1);
    expect(seen.map((c) => c.repeatOf)).toEqual([undefined, seen[0]!.seq]);
    expect(seen[0]!.exchange!.outcome).toMatchObject({ kind: 'transport-error', failure: { kind: 'timeout' } });
    // A different request is forwarded again.
    await post(proxy.url, call(3, { a: 2 }));
    expect(forwards).toBe(2);
  });

  test('an answer over the cap is not relayed', async () => {
    const { proxy, seen } = await proxyWith(async () => ({ kind: 'answer', message: answer({ blob: 'x'.repeat(20_000) }) }));
    const body = (await (await post(proxy.url, call(1))).json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/10000-byte cap/);
    expect(JSON.stringify(body).length).toBeLessThan(1000);
    expect(seen[0]!.exchange!.outcome).toMatchObject({ kind: 'transport-error', failure: { kind: 'oversize' } });
  });

  test('refuses what it must not forward, and malformed or oversized requests', async () => {
    let forwards = 0;
    const { proxy, seen } = await proxyWith(
      async () => {
        forwards++;
        return { kind: 'answer', message: answer({}) };
      },
      { refuse: (tool) => (tool === 'get_products' ? 'mutating tasks need a sandbox agent' : undefined), maxRequestBytes: 2048 },
    );
    const refused = (await (await post(proxy.url, call(1))).json()) as { error: { message: string } };
    expect(refused.error.message).toMatch(/not forwarded: mutating tasks need a sandbox agent/);
    expect(seen[0]!.refused).toBe('mutating tasks need a sandbox agent');
    expect((await post(proxy.url, call(2, { big: 'y'.repeat(5000) }))).status).toBe(413);
    expect((await post(proxy.url, [call(3)])).status).toBe(400);
    expect((await post(proxy.url, '{not json')).status).toBe(400);
    expect((await fetch(proxy.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
    expect((await fetch(proxy.url)).status).toBe(405);
    expect((await post(proxy.url.replace(/\/[0-9a-f]{32}\/mcp$/, '/mcp'), call(4))).status).toBe(404); // the path is unguessable
    expect((await fetch(new URL('/.well-known/oauth-protected-resource/mcp', proxy.url))).status).toBe(404);
    expect(forwards).toBe(0);
  });
});
