// The authentication rules of AdCP 3.1 on the wire: the wrong-credential generator, the sessions the
// auth scenarios open (which headers they drop or replace, that the real credential never goes out on
// them and the wrong one is redacted), the credential-in-args probe, the reference seller's detector,
// and the three checks live against the reference seller over HTTP with a bearer token, judged at 3.1.
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { credentialProbeArguments, newest31Release, PROBE_VALUE } from '../../harness/capture/credential-in-args.ts';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import { AUTH_SCENARIOS, unauthenticatedScenario, wrongCredential } from '../../harness/capture/unauthenticated.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import type { AgentConfig, HttpAgentConfig } from '../../harness/config/types.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import { startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';
import { credentialPath } from '../../sellers/reference/credentials.ts';

const timeouts = { connectMs: 20_000, callMs: 8_000, agentMs: 60_000 };

describe('wrongCredential: a well-formed but wrong value of the same shape', () => {
  test.for([
    'Bearer abcDEF0123456789-_.xyz',
    'Basic dXNlcjpwYXNzd29yZA==',
    'k-1234567890abcdef',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
  ])('%s', (value) => {
    for (let i = 0; i < 20; i++) {
      const wrong = wrongCredential(value);
      expect(wrong).not.toBe(value);
      expect(wrong).toHaveLength(value.length);
      // The scheme word and the punctuation stay; each letter and digit stays in its class.
      const shape = (s: string): string => s.replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A').replace(/[0-9]/g, '0');
      const [scheme] = value.split(' ');
      if (value.includes(' ')) expect(wrong.startsWith(`${scheme} `)).toBe(true);
      expect(shape(wrong.slice(value.indexOf(' ') + 1))).toBe(shape(value.slice(value.indexOf(' ') + 1)));
    }
  });

  test('a value without letters or digits still gets a wrong one', () => {
    expect(wrongCredential('Bearer ----')).toMatch(/^Bearer [a-z]{32}$/);
  });
});

/** A probe exchange as the capture records it (success or error). */
function probe(tool: string, ok = true): Exchange {
  return {
    agent: 'a',
    tool,
    intent: 'valid',
    request: { name: tool, arguments: { context: { correlation_id: 'c' }, brief: 'x' } },
    outcome: { kind: 'result', result: ok ? { structuredContent: { status: 'completed' } } : { isError: true } },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
  };
}

describe('unauthenticatedScenario: the sessions it opens', () => {
  const token = 'real-token-0123456789abcdef';
  const agent: HttpAgentConfig = {
    name: 'a',
    transport: 'http',
    url: 'http://127.0.0.1:1/mcp',
    headers: { Authorization: `Bearer ${token}`, 'X-Tenant': 'acme' },
    timeouts,
    production: false,
    sandbox: false,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [`Bearer ${token}`, token],
  };

  test('without the credential, then with a wrong one of the same shape; the real one never goes out, the wrong one is a secret', async () => {
    const seen: AgentConfig[] = [];
    const fake = async (bare: AgentConfig): Promise<AgentCapture> => {
      seen.push(bare);
      return {
        agent: { name: bare.name, transport: 'http', production: false, sandbox: false },
        initialize: { ok: false, failure: { kind: 'http-status', httpStatus: 401, message: 'HTTP 401' } },
        tools: [],
        exchanges: [],
      } as unknown as AgentCapture;
    };
    const exchanges = [probe('get_adcp_capabilities'), probe('get_products'), probe('list_creatives')];
    const { records, exchanges: added } = await unauthenticatedScenario(agent, exchanges, fake, 30_000);
    expect(records.map((r) => r.name)).toEqual([...AUTH_SCENARIOS]);
    expect(records.map((r) => [r.name, r.status, r.refusal?.at])).toEqual([
      ['unauthenticated', 'ran', 'initialize'],
      ['public-discovery', 'ran', 'initialize'],
      ['invalid-credentials', 'ran', 'initialize'],
    ]);
    expect(added).toEqual([]);
    expect(seen).toHaveLength(2);
    const [bare, wrong] = seen as [HttpAgentConfig, HttpAgentConfig];
    // Session 1: no Authorization; the discovery calls first, then the protected one, without the probe's context.
    expect(bare.headers).toEqual({ 'X-Tenant': 'acme' });
    expect(bare.probes?.map((p) => p.tool)).toEqual(['get_adcp_capabilities', 'get_products', 'list_creatives']);
    expect(bare.probes?.every((p) => !('context' in p.arguments))).toBe(true);
    // Session 2: the same header name, a wrong value of the same shape; redacted like the real one.
    expect(Object.keys(wrong.headers)).toEqual(['Authorization', 'X-Tenant']);
    const sent = wrong.headers['Authorization']!;
    expect(sent).toMatch(/^Bearer \S+$/);
    expect(sent).not.toContain(token);
    expect(sent).toHaveLength(`Bearer ${token}`.length);
    expect(wrong.secrets).toContain(sent);
    expect(wrong.secrets).toContain(sent.slice('Bearer '.length));
    expect(wrong.probes?.map((p) => p.tool)).toEqual(['list_creatives']);
    expect(JSON.stringify(records)).not.toContain(token);
  });

  test('no protected task called: unauthenticated and invalid-credentials are not-applicable, discovery still runs', async () => {
    const seen: AgentConfig[] = [];
    const fake = async (bare: AgentConfig): Promise<AgentCapture> => {
      seen.push(bare);
      return {
        agent: { name: bare.name, transport: 'http', production: false, sandbox: false },
        initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: {}, durationMs: 1 },
        tools: [],
        exchanges: [{ ...probe('get_adcp_capabilities'), agent: bare.name }],
      } as unknown as AgentCapture;
    };
    const { records, exchanges } = await unauthenticatedScenario(agent, [probe('get_adcp_capabilities')], fake, 30_000);
    expect(records.map((r) => [r.name, r.status])).toEqual([
      ['unauthenticated', 'not-applicable'],
      ['public-discovery', 'ran'],
      ['invalid-credentials', 'not-applicable'],
    ]);
    expect(seen).toHaveLength(1);
    expect(exchanges.map((x) => x.scenario)).toEqual([{ name: 'public-discovery', step: 'get_adcp_capabilities' }]);
  });

  test('stdio and credential-less agents: every auth scenario is not-applicable, with the reason', async () => {
    const fake = async (): Promise<AgentCapture> => {
      throw new Error('no session may be opened');
    };
    const { command, args } = stdioSellerCommand();
    const stdio: AgentConfig = { ...agent, transport: 'stdio', command, args, env: {} } as unknown as AgentConfig;
    for (const a of [stdio, { ...agent, headers: { 'X-Tenant': 'acme' } }]) {
      const { records } = await unauthenticatedScenario(a, [probe('list_creatives')], fake, 30_000);
      expect(records.every((r) => r.status === 'not-applicable' && typeof r.reason === 'string')).toBe(true);
    }
  });
});

describe('the credential-in-args probe', () => {
  const caps = (versions: unknown): Exchange => ({
    ...probe('get_adcp_capabilities'),
    outcome: { kind: 'result', result: { structuredContent: { status: 'completed', adcp: { supported_versions: versions } } } },
  });

  test('it pins the newest 3.1+ release the seller declares; none: the probe is not made', () => {
    expect(newest31Release([caps(['3.0', '3.1'])])).toBe('3.1');
    expect(newest31Release([caps(['3.1', '3.2', '3.2-rc.1', '4.0-beta'])])).toBe('3.2');
    expect(newest31Release([caps(['3.0'])])).toBeUndefined();
    expect(newest31Release([caps('3.1')])).toBeUndefined();
    expect(newest31Release([])).toBeUndefined();
  });

  test('its arguments: the base call’s, no context or other pin, ext kept and given api_key', () => {
    expect(credentialProbeArguments({ context: { a: 1 }, adcp_major_version: 2, brief: 'b', ext: { mine: true } }, '3.1')).toEqual({
      brief: 'b',
      adcp_version: '3.1',
      adcp_major_version: 3,
      ext: { mine: true, api_key: PROBE_VALUE },
    });
  });
});

describe('the reference seller’s detector (sellers/reference/credentials.ts)', () => {
  test.for([
    [{ ext: { api_key: 'x' } }, 'ext.api_key'],
    [{ brief: 'b', meta_access_token: 'x' }, 'meta_access_token'],
    [{ packages: [{ targeting: { Authorization: 'Bearer x' } }] }, 'packages[0].targeting.Authorization'],
    [{ ext: { nested: { jwks_uri: 'https://x' } } }, 'ext.nested.jwks_uri'],
    [{ context: { api_key: 'opaque, never parsed' } }, null],
    [{ push_notification_config: { url: 'https://b', authentication: { schemes: ['Bearer'], credentials: 'x'.repeat(32) } } }, null],
    [{ accounts: [{ notification_configs: [{ authentication: { credentials: 'x' } }] }] }, null],
    [{ brief: 'api_key in a value is fine', idempotency_key: 'k-0123456789abcdef' }, null],
  ] as const)('%j → %s', ([args, path]) => {
    expect(credentialPath(args as Record<string, unknown>)).toBe(path);
  });

  test('a deep or huge argument tree is bounded, never thrown on', () => {
    let deep: Record<string, unknown> = { api_key: 'x' };
    for (let i = 0; i < 200; i++) deep = { d: deep };
    expect(credentialPath(deep)).toBeNull();
    const wide = { ext: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])) };
    expect(() => credentialPath(wide)).not.toThrow();
  });
});

describe('live: the reference seller over HTTP with a bearer token, judged at AdCP 3.1', () => {
  test('discovery answers without the token, protected calls are refused without it and with a wrong one, ext.api_key is CREDENTIAL_IN_ARGS', async () => {
    const token = 'auth-scenarios-token-5c4b3a29';
    const seller = await startHttpSeller({ token });
    try {
      const agent: HttpAgentConfig = {
        name: 'ref-http',
        transport: 'http',
        url: seller.url,
        headers: { Authorization: `Bearer ${token}` },
        timeouts,
        production: false,
        sandbox: false,
        adcpVersion: '3.1',
        maxBytes: DEFAULT_MAX_BYTES,
        secrets: [`Bearer ${token}`, token],
      };
      const capture = await captureAgent(agent);
      const byName = Object.fromEntries((capture.scenarios ?? []).map((r) => [r.name, r]));
      expect(byName['unauthenticated']).toMatchObject({ status: 'ran', refusal: { at: 'tools/call', status: 401 } });
      expect(byName['invalid-credentials']).toMatchObject({ status: 'ran', refusal: { at: 'initialize', status: 401 } });
      expect(byName['public-discovery']).toMatchObject({ status: 'ran' });
      expect(byName['public-discovery']).not.toHaveProperty('refusal');
      expect(byName['credential-in-args']).toMatchObject({ status: 'ran' });
      const discovery = capture.exchanges.filter((x) => x.scenario?.name === 'public-discovery').map((x) => x.tool);
      expect(discovery.sort()).toEqual(['get_adcp_capabilities', 'get_products', 'list_creative_formats']);

      const outcomes = judgeAgent(capture, { agent: capture.agent }).filter((o) => o.check.startsWith('auth.'));
      const statuses = (id: string): string[] => outcomes.filter((o) => o.check === id).map((o) => o.status);
      expect(statuses('auth.unauthenticated')).toEqual(['pass']);
      expect(statuses('auth.invalid-credentials')).toEqual(['pass']);
      expect(statuses('auth.public-discovery')).toEqual(['pass', 'pass', 'pass']);
      expect(statuses('auth.credential-in-args')).toEqual(['pass']);
      expect(outcomes.find((o) => o.check === 'auth.credential-in-args')?.severity).toBe('MUST');
      expect(JSON.stringify(capture)).not.toContain(token);
    } finally {
      await seller.close();
    }
  }, 90_000);

  test('judged at 3.0, credential-in-args is not-applicable with the reason', async () => {
    const { command, args } = stdioSellerCommand();
    const capture = await captureAgent({
      name: 'ref',
      transport: 'stdio',
      command,
      args,
      env: {},
      timeouts,
      production: false,
      sandbox: false,
      adcpVersion: '3.0',
      maxBytes: DEFAULT_MAX_BYTES,
      secrets: [],
    });
    const o = judgeAgent(capture, { agent: capture.agent }).filter((x) => x.check.startsWith('auth.'));
    expect(o.find((x) => x.check === 'auth.credential-in-args')).toMatchObject({ status: 'not-applicable' });
    expect(o.find((x) => x.check === 'auth.credential-in-args')?.message).toMatch(/AdCP 3\.1 rule/);
    expect(o.filter((x) => x.check !== 'auth.credential-in-args').every((x) => x.status === 'not-applicable')).toBe(true);
  }, 90_000);
});
