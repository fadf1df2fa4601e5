// Key discovery (harness/webhooks/key-discovery.ts) against hosts built to hold a client: a JWKS body that
// never ends, a brand.json dripped a byte at a time, a redirect to the trap host. Each ends within its
// budget (byte cap, total deadline), with a problem, without following anyone anywhere.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { discoverWebhookKeys, MAX_JWKS_BYTES } from '../../harness/webhooks/key-discovery.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(host: string, handler: Handler): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return { server, base: `http://${host}:${(server.address() as AddressInfo).port}` };
}
async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

const routes = new Map<string, Handler>();
let host: { server: Server; base: string };
let trap: { server: Server; base: string };
let trapHits = 0;
/** Bytes the endless JWKS host wrote before the harness hung up. */
let endlessSent = 0;

beforeAll(async () => {
  host = await listen('127.0.0.1', (req, res) => {
    const route = routes.get(req.url ?? '');
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  trap = await listen('127.0.0.2', (_req, res) => {
    trapHits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
afterAll(async () => {
  await close(host.server);
  await close(trap.server);
});

function capture(brandJsonUrl: string): AgentCapture {
  return {
    agent: { name: 'hostile', transport: 'http', production: false, sandbox: true },
    initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: {}, durationMs: 0 },
    exchanges: [
      {
        agent: 'hostile',
        tool: 'get_adcp_capabilities',
        intent: 'valid',
        request: { name: 'get_adcp_capabilities', arguments: {} },
        outcome: { kind: 'result', result: { content: [], structuredContent: { identity: { brand_json_url: brandJsonUrl } } } },
        startedAt: new Date().toISOString(),
        durationMs: 1,
      },
    ],
  };
}
const agentUrl = () => `${host.base}/mcp`;

describe('key discovery against hostile hosts', () => {
  test('an endless JWKS body: cut at the 64 KiB cap, the connection dropped', async () => {
    routes.set('/endless/brand.json', (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ agents: [{ url: agentUrl(), jwks_uri: `${host.base}/endless/jwks.json` }] })),
    );
    const chunk = Buffer.alloc(16_384, 0x20);
    const dropped = new Promise<void>((resolve) => {
      routes.set('/endless/jwks.json', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"keys":[');
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) endlessSent += chunk.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        res.once('close', () => resolve());
        pump();
      });
    });
    const started = performance.now();
    const found = await discoverWebhookKeys(capture(`${host.base}/endless/brand.json`), { agentUrl: agentUrl(), totalMs: 5_000 });
    expect(found).toEqual({ problem: `the JWKS at ${host.base}/endless/jwks.json is larger than ${MAX_JWKS_BYTES} bytes` });
    await dropped;
    expect(performance.now() - started).toBeLessThan(5_000);
    // Socket buffers hold some of what was sent; the harness stopped reading a few chunks past the cap.
    expect(endlessSent).toBeLessThan(64 * 1024 * 1024);
  }, 20_000);

  test('a brand.json dripped one byte every 50 ms: ended by the total deadline', async () => {
    routes.set('/drip/brand.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.once('close', () => clearInterval(timer));
    });
    const started = performance.now();
    const found = await discoverWebhookKeys(capture(`${host.base}/drip/brand.json`), { agentUrl: agentUrl(), totalMs: 800 });
    expect(found).toEqual({ problem: `brand.json ${host.base}/drip/brand.json could not be fetched: no complete answer within 800 ms` });
    expect(performance.now() - started).toBeLessThan(800 + 2_000);
  }, 20_000);

  test('a redirect to the trap host is not followed', async () => {
    routes.set('/trap/brand.json', (_req, res) => res.writeHead(301, { location: `${trap.base}/brand.json` }).end());
    const found = await discoverWebhookKeys(capture(`${host.base}/trap/brand.json`), { agentUrl: agentUrl() });
    expect(found).toMatchObject({ problem: expect.stringContaining('redirects are not followed') });
    expect(trapHits).toBe(0);
  });

  test('a brand_json_url on the trap host over plain http, from a remote agent: never connected to', async () => {
    const found = await discoverWebhookKeys(capture(`${trap.base}/brand.json`), { agentUrl: 'https://seller.example/mcp' });
    expect(found).toMatchObject({ problem: expect.stringMatching(/is not https .*not fetched$/) });
    expect(trapHits).toBe(0);
  });
});
