// Discovering a seller's webhook-signing keys where AdCP says sellers publish them (security.mdx,
// "Discovering an agent's signing keys via brand_json_url"): get_adcp_capabilities → identity.brand_json_url
// → brand.json agents[] entry byte-equal to the agent's URL → jwks_uri. Live: the reference seller over HTTP
// names a brand.json a loopback server hosts, its real signed deliveries verify with the discovered key and
// webhook.signature passes. Then every way discovery can find no key, each leaving webhook.signature untested
// with the reason, never a pass.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import signature from '../../harness/checks/webhook/signature.ts';
import type { HttpAgentConfig } from '../../harness/config/types.ts';
import { own } from '../../harness/json.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { discoverWebhookKeys, MAX_BRAND_JSON_BYTES, MAX_JWKS_BYTES, STDIO_PROBLEM } from '../../harness/webhooks/key-discovery.ts';
import { webhookFacts } from '../../harness/webhooks/report-facts.ts';
import { verifyCapturedWebhooks } from '../../harness/webhooks/verify.ts';
import { REFERENCE_WEBHOOK_JWKS, startHttpSeller } from '../../sellers/launch.ts';
import { parseSellerArgs } from '../../sellers/reference/options.ts';
import { signedHeaders } from '../../sellers/reference/webhooks.ts';

const JWKS: unknown = JSON.parse(readFileSync(REFERENCE_WEBHOOK_JWKS, 'utf8'));
const KID = 'reference-seller-webhook-2026';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const json =
  (value: unknown): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };

/** A loopback host for brand.json and JWKS documents: each path answers as the test sets it. */
let server: Server;
let base = '';
const routes = new Map<string, Handler>();
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const route = routes.get(req.url ?? '');
    if (route) route(req, res);
    else res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const outcomesOf = (c: AgentCapture) => judgeAgent(c, { agent: c.agent }, undefined, [signature]);

describe('the reference seller, live over HTTP, publishing its keys through brand.json', () => {
  test('deliveries verify with the discovered key; webhook.signature passes and says where the keys came from', async () => {
    const seller = await startHttpSeller({ brandJsonUrl: `${base}/live/brand.json` });
    try {
      routes.set('/live/brand.json', json({ agents: [{ type: 'sales', url: seller.url, jwks_uri: `${base}/live/jwks.json` }] }));
      routes.set('/live/jwks.json', json(JWKS));
      const agent: HttpAgentConfig = {
        name: 'discovering-seller',
        transport: 'http',
        url: seller.url,
        headers: {},
        timeouts: { connectMs: 15_000, callMs: 10_000, agentMs: 90_000 },
        production: false,
        sandbox: true,
        maxBytes: 1_114_112,
        secrets: [],
      };
      const capture = await captureAgent(agent, { webhooks: { lateMs: 200 } });
      const caps = capture.exchanges.find((x) => x.tool === 'get_adcp_capabilities' && x.outcome.kind === 'result')!;
      expect(JSON.stringify(caps.outcome)).toContain(`${base}/live/brand.json`);
      // captureAgent discovered the keys itself, from the agent's URL: nothing is verified again here.
      const hooks = capture.webhooks!;
      expect(hooks.keys).toEqual({
        source: expect.stringMatching(/^jwks_uri http:\/\/127\.0\.0\.1:\d+\/live\/jwks\.json \(from brand\.json http:.*origin binding/),
      });
      const handedOut = hooks.deliveries.filter((d) => d.call !== undefined);
      expect(handedOut.length).toBeGreaterThan(0);
      for (const d of handedOut) expect(d.verification).toEqual({ ok: true, keyid: KID });

      const outcomes = outcomesOf(capture);
      expect(outcomes.length).toBeGreaterThan(0);
      expect(outcomes.map((o) => o.status)).toEqual(outcomes.map(() => 'pass'));
      expect(webhookFacts(capture, [])!.keys).toMatch(/^keys: jwks_uri http:\/\/127\.0\.0\.1/);
    } finally {
      await seller.close();
    }
  }, 120_000);
});

test('the reference seller takes --brand-json-url as an http(s) URL only', async () => {
  expect(await parseSellerArgs(['--brand-json-url', 'https://seller.example/.well-known/brand.json'])).toMatchObject({
    brandJsonUrl: 'https://seller.example/.well-known/brand.json',
  });
  await expect(parseSellerArgs(['--brand-json-url', 'ftp://seller.example/brand.json'])).rejects.toThrow(
    /--brand-json-url must be an http\(s\) URL/,
  );
  expect(await parseSellerArgs([])).not.toHaveProperty('brandJsonUrl');
});

describe('discovery against a loopback brand.json host', () => {
  const agentUrl = () => `${base}/mcp`;
  const body = '{"status":"completed"}';

  /** An HTTP sandbox agent whose capabilities carry `identity` (or none) and one delivery signed by the reference key. */
  function capture(identity: unknown, transport: 'http' | 'stdio' = 'http'): AgentCapture {
    const structuredContent = { adcp: { major_versions: [3] }, ...(identity !== undefined ? { identity } : {}) };
    return {
      agent: { name: 'a', transport, production: false, sandbox: true },
      initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: {}, durationMs: 0 },
      exchanges: [
        {
          agent: 'a',
          tool: 'get_adcp_capabilities',
          intent: 'valid',
          request: { name: 'get_adcp_capabilities', arguments: {} },
          outcome: { kind: 'result', result: { content: [], structuredContent } },
          startedAt: new Date().toISOString(),
          durationMs: 1,
        },
      ],
      webhooks: {
        base: 'http://127.0.0.1:4000/wh',
        kind: 'loopback',
        omitted: 0,
        waitedMs: 0,
        deliveries: [
          {
            at: 1,
            method: 'POST',
            target: '/wh/0',
            call: 0,
            headers: Object.entries(signedHeaders('http://127.0.0.1:4000/wh/0', body)).map(([k, v]) => [k.toLowerCase(), v]),
            body,
            bodyEncoding: 'utf8',
            bodyBytes: body.length,
            answered: 200,
          },
        ],
      },
    };
  }
  const brandAt = (name: string) => ({ brand_json_url: `${base}/${name}/brand.json` });

  /** Verifies with discovery; returns the recorded problem after checking webhook.signature is untested with it. */
  async function problemOf(c: AgentCapture, opts: { totalMs?: number; agentUrl?: string } = {}): Promise<string> {
    await verifyCapturedWebhooks(c, {
      agentUrl: opts.agentUrl ?? agentUrl(),
      ...(opts.totalMs !== undefined ? { totalMs: opts.totalMs } : {}),
    });
    const keys = c.webhooks!.keys;
    expect(keys).toEqual({ problem: expect.any(String) });
    const problem = own(keys, 'problem') as string;
    expect(c.webhooks!.deliveries[0]).not.toHaveProperty('verification');
    const outcomes = outcomesOf(c);
    expect(outcomes).toHaveLength(1);
    // The engine bounds a reason (400 characters): the problem's start is what must show.
    expect(outcomes[0]).toMatchObject({
      status: 'untested',
      message: expect.stringContaining(`; key discovery: ${problem.slice(0, 120)}`),
    });
    expect(webhookFacts(c, [])!.keys).toBe(`keys: none (${problem})`);
    return problem;
  }

  test('brand.json entry without jwks_uri: the JWKS at /.well-known/jwks.json of the agent origin verifies', async () => {
    routes.set('/default/brand.json', json({ agents: [{ type: 'sales', url: agentUrl() }] }));
    routes.set('/.well-known/jwks.json', json(JWKS));
    const c = capture(brandAt('default'));
    await verifyCapturedWebhooks(c, { agentUrl: agentUrl() });
    expect(c.webhooks!.keys).toEqual({
      source: expect.stringContaining(`jwks_uri ${base}/.well-known/jwks.json (the default at the agent's origin`),
    });
    expect(c.webhooks!.deliveries[0]!.verification).toEqual({ ok: true, keyid: KID });
    expect(outcomesOf(c).map((o) => o.status)).toEqual(['pass']);

    // A delivery that does not verify: the failure names the keys it was judged against.
    const altered = capture(brandAt('default'));
    altered.webhooks!.deliveries[0]!.body = '{"status":"failed"}';
    await verifyCapturedWebhooks(altered, { agentUrl: agentUrl() });
    expect(outcomesOf(altered)).toMatchObject([
      { status: 'fail', expected: expect.stringContaining(`a key of the seller's published JWKS, jwks_uri ${base}/.well-known/jwks.json`) },
    ]);
  });

  test('configured webhookKeys win: no fetch, the source recorded', async () => {
    const c = capture(brandAt('configured'));
    c.agent.webhookKeys = { ...(JWKS as { keys: never[] }), source: '/etc/seller-jwks.json' };
    const before = hits.length;
    await verifyCapturedWebhooks(c, { agentUrl: agentUrl() });
    expect(hits.length).toBe(before);
    expect(c.webhooks!.keys).toEqual({ source: '/etc/seller-jwks.json' });
    expect(outcomesOf(c).map((o) => o.status)).toEqual(['pass']);
  });

  test('no identity.brand_json_url', async () => {
    expect(await problemOf(capture(undefined))).toBe('the capabilities carry no identity.brand_json_url');
    expect(await problemOf(capture({ per_principal_key_isolation: true }))).toBe('the capabilities carry no identity.brand_json_url');
  });

  test('a stdio agent: nothing fetched', async () => {
    const before = hits.length;
    expect(await problemOf(capture(brandAt('stdio'), 'stdio'))).toBe(STDIO_PROBLEM);
    expect(hits.length).toBe(before);
  });

  test('plain http refused without fetching, unless the agent and the host are both loopback', async () => {
    expect(await problemOf(capture({ brand_json_url: 'http://brand.example/.well-known/brand.json' }))).toMatch(
      /^identity\.brand_json_url http:\/\/brand\.example\/\.well-known\/brand\.json is not https/,
    );
    const before = hits.length;
    const remoteAgent = await problemOf(capture(brandAt('loopback')), { agentUrl: 'https://seller.example/mcp' });
    expect(remoteAgent).toMatch(/is not https .*not fetched$/);
    expect(hits.length).toBe(before);
    expect(await problemOf(capture({ brand_json_url: 'not a url' }))).toMatch(/is not a URL$/);
  });

  test('brand.json 404', async () => {
    expect(await problemOf(capture(brandAt('missing')))).toMatch(/^brand\.json http:.*\/missing\/brand\.json answered HTTP 404$/);
  });

  test('brand.json redirect: not followed', async () => {
    routes.set('/moved/brand.json', (_req, res) => res.writeHead(302, { location: `${base}/default/brand.json` }).end());
    const before = hits.length;
    expect(await problemOf(capture(brandAt('moved')))).toMatch(
      /answered 302 \(to http:.*\/default\/brand\.json\): redirects are not followed/,
    );
    expect(hits.slice(before)).toEqual(['/moved/brand.json']);
  });

  test('brand.json over 256 KiB, streamed without a length, and with one', async () => {
    const big = JSON.stringify({ agents: [{ url: agentUrl() }], pad: 'x'.repeat(MAX_BRAND_JSON_BYTES) });
    routes.set('/big/brand.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < big.length; i += 16_384) res.write(big.slice(i, i + 16_384));
      res.end();
    });
    routes.set('/big-declared/brand.json', (_req, res) => res.writeHead(200, { 'content-length': Buffer.byteLength(big) }).end(big));
    expect(await problemOf(capture(brandAt('big')))).toMatch(/brand\.json .* is larger than 262144 bytes$/);
    expect(await problemOf(capture(brandAt('big-declared')))).toMatch(/is larger than 262144 bytes \(content-length \d+\)$/);
  });

  test('brand.json that is not JSON, or has no agents[]', async () => {
    routes.set('/html/brand.json', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'));
    routes.set('/noagents/brand.json', json({ house: { domain: 'x' } }));
    expect(await problemOf(capture(brandAt('html')))).toMatch(/is not JSON$/);
    expect(await problemOf(capture(brandAt('noagents')))).toMatch(/has no agents\[\] array$/);
  });

  test('the agent URL in no agents[] entry (byte-equal: a trailing slash differs), or in two', async () => {
    routes.set('/slash/brand.json', json({ agents: [{ url: `${agentUrl()}/` }, { url: 'https://other.example/mcp' }] }));
    routes.set(
      '/twice/brand.json',
      json({ agents: [{ url: agentUrl() }, { url: agentUrl(), jwks_uri: `${base}/.well-known/jwks.json` }] }),
    );
    expect(await problemOf(capture(brandAt('slash')))).toMatch(
      new RegExp(
        `no agents\\[\\] entry .* byte-equal to the agent's configured URL \\(listed: "${agentUrl()}/", "https://other.example/mcp"\\)$`,
      ),
    );
    expect(await problemOf(capture(brandAt('twice')))).toMatch(/lists the agent's URL in 2 agents\[\] entries \(ambiguous\)$/);
  });

  test('jwks_uri over 64 KiB, with private key material, not https', async () => {
    const withJwks = (name: string, jwksUri: string) =>
      routes.set(`/${name}/brand.json`, json({ agents: [{ url: agentUrl(), jwks_uri: jwksUri }] }));
    withJwks('bigjwks', `${base}/bigjwks/jwks.json`);
    routes.set('/bigjwks/jwks.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...(JWKS as object), pad: 'x'.repeat(MAX_JWKS_BYTES) }));
    });
    withJwks('private', `${base}/private/jwks.json`);
    const [key] = (JWKS as { keys: object[] }).keys;
    routes.set('/private/jwks.json', json({ keys: [{ ...key, d: 'c2VjcmV0' }] }));
    withJwks('plainjwks', 'http://keys.example/jwks.json');
    expect(await problemOf(capture(brandAt('bigjwks')))).toMatch(/^the JWKS at http:.*\/bigjwks\/jwks\.json is larger than 65536 bytes/);
    expect(await problemOf(capture(brandAt('private')))).toMatch(/keys\[0\] holds private key material \("d"\)/);
    expect(await problemOf(capture(brandAt('plainjwks')))).toMatch(/^jwks_uri http:\/\/keys\.example\/jwks\.json is not https/);
  });

  test('a host that never answers: bounded by the total timeout', async () => {
    routes.set('/silent/brand.json', () => undefined);
    expect(await problemOf(capture(brandAt('silent')), { totalMs: 300 })).toMatch(
      /could not be fetched: no complete answer within 300 ms$/,
    );
  });

  test('nothing listening: a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const problem = await problemOf(capture({ brand_json_url: `http://127.0.0.1:${port}/brand.json` }));
    expect(problem).toMatch(/could not be fetched: ECONNREFUSED$/);
  });

  test('discoverWebhookKeys never throws and bounds what the seller wrote', async () => {
    const long = `${base}/${'a'.repeat(5000)}/brand.json`;
    const found = await discoverWebhookKeys(capture({ brand_json_url: long }), { agentUrl: agentUrl() });
    expect('problem' in found && found.problem.length).toBeLessThan(400);
    expect(await discoverWebhookKeys(capture(brandAt('x')), {})).toEqual({ problem: "the agent's URL was not available to key discovery" });
  });
});
