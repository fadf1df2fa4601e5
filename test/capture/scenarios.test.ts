// The business-rule scenarios live against the reference seller: which calls they add and how they are
// recorded (scenario steps, records with reasons), that a recording replays them to the same verdicts, and
// that the call without credentials runs in a session of its own (its 401 is not the agent's HTTP answer).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { readRecording, writeRecording } from '../../harness/capture/recording.ts';
import { credentialHeaders } from '../../harness/capture/unauthenticated.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import type { HttpAgentConfig, StdioAgentConfig } from '../../harness/config/types.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import { startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';

const timeouts = { connectMs: 20_000, callMs: 8_000, agentMs: 60_000 };
const BUSINESS = /^(auth|idempotency|pagination)\.|^error\.(version-unsupported|unknown-reference)$/;

function stdio(over: Partial<StdioAgentConfig> = {}): StdioAgentConfig {
  const { command, args } = stdioSellerCommand();
  return {
    name: 'ref',
    transport: 'stdio',
    command,
    args,
    env: {},
    timeouts,
    production: false,
    sandbox: true,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [],
    ...over,
  };
}

/**
 * The AdCP 3.1 wire scenarios (version-scenario.ts, envelope-scenario.ts, credential-in-args.ts): read-only,
 * on every agent; asserted apart (test/capture/auth-scenarios.test.ts has the credential one).
 */
const WIRE = new Set(['release-negotiation', 'major-mismatch', 'protocol-fields', 'context-not-fabricated', 'credential-in-args']);
const steps = (c: AgentCapture, wire = false): string[] =>
  c.exchanges
    .filter((x) => x.scenario && WIRE.has(x.scenario.name) === wire)
    .map((x) => `${x.tool} ${x.scenario!.name}:${x.scenario!.step}`);
const business = (c: AgentCapture): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  for (const o of judgeAgent(c, { agent: c.agent })) if (BUSINESS.test(o.check)) (out[o.check] ??= []).push(o.status);
  return out;
};

describe('scenarios against the reference seller', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  test('a sandbox agent: the scenario calls in order, each a recorded step; every record says ran; a recording replays them', async () => {
    const capture = await captureAgent(stdio());
    // The task lifecycle's polls follow the seller's clock (3–5 of them; test/capture/task-flow.test.ts).
    expect(steps(capture).filter((s) => s.includes('task-lifecycle:poll-')).length).toBeGreaterThan(0);
    expect(steps(capture).filter((s) => !s.includes('task-lifecycle:poll-'))).toEqual([
      'get_products version-negotiation:unsupported-version',
      'get_products version-negotiation:supported-version',
      'get_products pagination:page-1',
      'get_products pagination:page-2', // four products at a page size of two
      'create_media_buy idempotency:original',
      'create_media_buy idempotency:replay',
      'create_media_buy idempotency:conflict',
      'create_media_buy idempotency:missing-key',
      'create_media_buy idempotency:error-first',
      'create_media_buy idempotency:error-retry',
      'create_media_buy idempotency:malformed-key',
      'create_media_buy idempotency:concurrent-first', // the pair, sent at once (test/capture/idempotency-flow.test.ts)
      'create_media_buy idempotency:concurrent-second',
      'update_media_buy idempotency:cleanup', // the original booking, the corrected retry and the pair's, canceled
      'update_media_buy idempotency:cleanup',
      'update_media_buy idempotency:cleanup',
      'create_media_buy unknown-reference:unknown-product',
      'update_media_buy unknown-reference:unknown-media-buy',
      // The media-buy lifecycle (harness/capture/media-buy-flow.ts; test/checks/state-flows.test.ts).
      'create_media_buy media-buy-lifecycle:book',
      'get_media_buys media-buy-lifecycle:read-by-id',
      'get_media_buys media-buy-lifecycle:read-list-1',
      'update_media_buy media-buy-lifecycle:pause',
      'get_media_buys media-buy-lifecycle:read-paused',
      'update_media_buy media-buy-lifecycle:stale-revision',
      'update_media_buy media-buy-lifecycle:resume',
      'get_media_buys media-buy-lifecycle:read-resumed',
      'update_media_buy media-buy-lifecycle:cancel',
      'get_media_buys media-buy-lifecycle:read-canceled',
      'update_media_buy media-buy-lifecycle:cancel-again',
      'update_media_buy media-buy-lifecycle:update-canceled',
      'create_media_buy media-buy-lifecycle:past-start',
      'create_media_buy media-buy-lifecycle:end-before-start',
      // The creative library (harness/capture/creative-flow.ts).
      'sync_creatives creative-library:sync',
      'list_creatives creative-library:list-1',
      'sync_creatives creative-library:dry-run',
      'list_creatives creative-library:list-after-dry-run-1',
      // The task lifecycle (harness/capture/task-flow.ts): a guaranteed booking answered submitted, polled, replayed, canceled.
      'create_media_buy task-lifecycle:book',
      'create_media_buy task-lifecycle:replay',
      'update_media_buy task-lifecycle:cleanup',
    ]);
    // The booking names the first product the seller offered in its own get_products answer (the probe's brief).
    const probe = capture.exchanges.find((x) => x.tool === 'get_products' && !x.scenario && x.intent !== 'invalid')!;
    const offered = ((probe.outcome as { result: { structuredContent: { products: Array<Record<string, unknown>> } } }).result
      .structuredContent.products[0] ?? {}) as { product_id?: string; pricing_options?: Array<{ pricing_option_id: string }> };
    const booking = capture.exchanges.find((x) => x.scenario?.step === 'original')!;
    expect((booking.request.arguments['packages'] as Array<Record<string, unknown>>)[0]).toMatchObject({
      product_id: offered.product_id,
      pricing_option_id: offered.pricing_options?.[0]?.pricing_option_id,
    });
    expect(offered.product_id).toEqual(expect.any(String));
    expect(capture.scenarios?.filter((r) => !WIRE.has(r.name)).map((r) => `${r.name}:${r.status}`)).toEqual([
      'version-negotiation:ran',
      'pagination:ran',
      'idempotency:ran',
      'unknown-reference:ran',
      'media-buy-lifecycle:ran',
      'creative-library:ran',
      'task-lifecycle:ran',
      'unauthenticated:not-applicable',
      'public-discovery:not-applicable',
      'invalid-credentials:not-applicable',
    ]);
    // Scenario calls are named as such in reports.
    const outcomes = judgeAgent(capture, { agent: capture.agent });
    expect(
      outcomes.some((o) => o.check === 'envelope.context-echo' && o.tool === 'get_products (pagination: page-2)' && o.status === 'pass'),
    ).toBe(true);
    expect(business(capture)).toEqual({
      'error.version-unsupported': ['pass', 'pass'],
      'error.unknown-reference': ['pass', 'pass'],
      'auth.unauthenticated': ['not-applicable'],
      'auth.invalid-credentials': ['not-applicable'],
      'auth.public-discovery': ['not-applicable'],
      // Judged with no schema service, at the default 3.0, where the rule does not apply.
      'auth.credential-in-args': ['not-applicable'],
      'idempotency.conflict': ['pass'],
      'idempotency.missing-key': ['pass'],
      'idempotency.replay': ['pass'],
      'idempotency.replayed-flag': ['pass'],
      'idempotency.error-not-cached': ['pass'],
      'idempotency.malformed-key': ['pass'],
      'idempotency.concurrent': ['pass'],
      'pagination.cursor': ['pass'],
    });

    const dir = await mkdtemp(join(tmpdir(), 'adcp-scenarios-'));
    dirs.push(dir);
    await writeRecording(join(dir, 'rec.jsonl'), [capture]);
    const [replayed] = await readRecording(join(dir, 'rec.jsonl'));
    expect(replayed!.scenarios).toEqual(capture.scenarios);
    expect(business(replayed!)).toEqual(business(capture));
  }, 90_000);

  test('the AdCP 3.1 wire scenarios: version pins, envelope fields and a call without context, read-only, all judged pass', async () => {
    const capture = await captureAgent(stdio({ sandbox: false, args: [...stdioSellerCommand({ sandbox: false }).args] }));
    expect(steps(capture, true)).toEqual([
      'get_products release-negotiation:exact-release',
      'get_products release-negotiation:higher-minor',
      'get_products release-negotiation:unlisted-pre-release',
      'get_products release-negotiation:other-major',
      'get_products major-mismatch:major-disagrees',
      'get_products major-mismatch:release-disagrees',
      'get_adcp_capabilities protocol-fields:with-protocol-fields',
      'get_products protocol-fields:with-protocol-fields',
      'get_products context-not-fabricated:without-context',
      'get_adcp_capabilities credential-in-args:ext-api-key',
    ]);
    const pins = capture.exchanges
      .filter((x) => x.scenario && WIRE.has(x.scenario.name) && x.scenario.name !== 'protocol-fields')
      .map((x) => [x.request.arguments['adcp_version'], x.request.arguments['adcp_major_version']]);
    expect(pins).toEqual([
      ['3.1', 3],
      ['3.99', 3],
      ['3.1-beta.99', 3],
      ['99.0', 99],
      ['3.1', 4],
      ['4.0', 3],
      [undefined, undefined],
      ['3.1', 3], // credential-in-args pins the newest 3.1+ release the seller declares
    ]);
    // The call without context really went without one; the envelope fields went with a harmless webhook URL.
    expect(capture.exchanges.find((x) => x.scenario?.name === 'context-not-fabricated')?.request.arguments).not.toHaveProperty('context');
    const fields = capture.exchanges.find((x) => x.scenario?.name === 'protocol-fields')!.request.arguments;
    expect(Object.keys(fields)).toEqual(
      expect.arrayContaining(['context_id', 'push_notification_config', 'governance_context', 'idempotency_key']),
    );
    expect((fields['push_notification_config'] as { url: string }).url).toMatch(/^https:\/\/conformance-test\.example\//);
    expect(capture.scenarios?.filter((r) => WIRE.has(r.name)).map((r) => `${r.name}:${r.status}`)).toEqual([
      'release-negotiation:ran',
      'major-mismatch:ran',
      'protocol-fields:ran',
      'context-not-fabricated:ran',
      'credential-in-args:ran',
    ]);
    const wire = judgeAgent(capture, { agent: capture.agent }).filter((o) =>
      /^(version\.(echo|release-negotiation|major-mismatch)|envelope\.(protocol-fields|context-not-fabricated))$/.test(o.check),
    );
    expect(new Set(wire.map((o) => o.check)).size).toBe(5);
    expect(wire.filter((o) => o.status !== 'pass')).toEqual([]);
  }, 90_000);

  test('an agent not marked sandbox: no mutating call, and the mutating rules say why they do not apply', async () => {
    const capture = await captureAgent(stdio({ sandbox: false, args: [...stdioSellerCommand({ sandbox: false }).args] }));
    expect(capture.exchanges.some((x) => x.tool === 'create_media_buy')).toBe(false);
    expect(steps(capture)).toHaveLength(4); // version negotiation (2) and two product pages (four products, two a page)
    const idempotency = capture.scenarios?.find((r) => r.name === 'idempotency');
    expect(idempotency).toMatchObject({ status: 'not-applicable', reason: expect.stringContaining('sandbox') });
    const statuses = business(capture);
    for (const id of [
      'idempotency.replay',
      'idempotency.conflict',
      'idempotency.missing-key',
      'idempotency.replayed-flag',
      'idempotency.error-not-cached',
      'idempotency.malformed-key',
      'idempotency.concurrent',
      'error.unknown-reference',
    ])
      expect(statuses[id]).toEqual(['not-applicable']);
  }, 90_000);

  test('probes that never called a list or a read task: the scenarios make the base call themselves', async () => {
    const capture = await captureAgent(
      stdio({ sandbox: false, probes: [{ tool: 'get_adcp_capabilities', arguments: {}, intent: 'valid' }] }),
    );
    expect(steps(capture).slice(0, 3)).toEqual([
      'get_products version-negotiation:base',
      'get_products version-negotiation:unsupported-version',
      'get_products version-negotiation:supported-version',
    ]);
    // The pagination walk compares with the base call the version scenario made.
    expect(capture.scenarios?.find((r) => r.name === 'pagination')).toMatchObject({ status: 'ran', baseCall: 1 });
    expect(business(capture)['pagination.cursor']).toEqual(['pass']);
  }, 90_000);
});

describe('the call without credentials', () => {
  test('HTTP with a bearer token: the protected call refused with a challenge, in a session of its own; the token is in no record', async () => {
    const token = 'scenario-token-9f8e7d6c5b';
    const seller = await startHttpSeller({ token });
    try {
      const agent: HttpAgentConfig = {
        name: 'ref-http',
        transport: 'http',
        url: seller.url,
        headers: { Authorization: `Bearer ${token}`, 'X-Trace': 'conformance' },
        timeouts,
        production: false,
        sandbox: false,
        maxBytes: DEFAULT_MAX_BYTES,
        secrets: [`Bearer ${token}`, token],
      };
      const capture = await captureAgent(agent);
      const record = capture.scenarios?.find((r) => r.name === 'unauthenticated');
      expect(record).toMatchObject({
        status: 'ran',
        withheld: ['Authorization'],
        // initialize and tools/list are public (so is discovery): the protected call itself is refused.
        refusal: { at: 'tools/call', status: 401, wwwAuthenticate: expect.stringMatching(/^Bearer realm=/) },
      });
      // The agent's own HTTP answers are all 2xx: the 401 belongs to the second session.
      expect(capture.http?.observations.every((o) => o.status >= 200 && o.status < 300)).toBe(true);
      expect(business(capture)['auth.unauthenticated']).toEqual(['pass']);
      expect(
        judgeAgent(capture, { agent: capture.agent })
          .filter((o) => o.check === 'transport.http-response')
          .map((o) => o.status),
      ).not.toContain('fail');
      expect(JSON.stringify(capture)).not.toContain(token);
    } finally {
      await seller.close();
    }
  }, 90_000);

  test('which headers are credentials: the config says, else the names do', () => {
    const agent = (headers: Record<string, string>, credentialHeaders?: string[]): HttpAgentConfig => ({
      name: 'h',
      transport: 'http',
      url: 'http://127.0.0.1:1/mcp',
      headers,
      ...(credentialHeaders ? { credentialHeaders } : {}),
      timeouts,
      production: false,
      sandbox: false,
      maxBytes: DEFAULT_MAX_BYTES,
      secrets: [],
    });
    expect(
      credentialHeaders(agent({ Authorization: 'Bearer x', 'X-Api-Key': 'k', 'X-Tenant': 'acme', Accept: 'application/json' })),
    ).toEqual(['Authorization', 'X-Api-Key']);
    expect(credentialHeaders(agent({ 'X-Tenant': 'acme', Authorization: 'Bearer x' }, ['x-tenant']))).toEqual(['X-Tenant']);
    expect(credentialHeaders(agent({ 'X-Trace': 'on' }))).toEqual([]);
  });
});
