// The agent's `account` on the wire: every call whose task takes an account reference carries the
// configured one (probes, the invalid probe, every scenario step), and nothing is added without one.
// Live: the reference seller over stdio, run with --require-account, which refuses any call that does
// not name it.
import { describe, expect, test } from 'vitest';
import { ACCOUNT_TASKS } from '../../harness/adcp-tasks.ts';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { defaultProbes, withAccount } from '../../harness/capture/probes.ts';
import type { StdioAgentConfig } from '../../harness/config/types.ts';
import { own } from '../../harness/json.ts';
import type { Exchange } from '../../harness/record/exchange.ts';
import { stdioSellerCommand } from '../../sellers/launch.ts';

const ACCOUNT = { account_id: 'acc_123' };

function seller(over: Partial<StdioAgentConfig> = {}): StdioAgentConfig {
  const { command, args } = stdioSellerCommand({ requireAccount: 'acc_123' });
  return {
    name: 'needs-account',
    transport: 'stdio',
    command,
    args,
    env: {},
    timeouts: { connectMs: 15_000, callMs: 10_000, agentMs: 90_000 },
    production: false,
    sandbox: true,
    maxBytes: 1_114_112,
    secrets: [],
    ...over,
  };
}

/** The adcp_error code of a call's answer, if it is an error. */
const errorCode = (x: Exchange): unknown =>
  x.outcome.kind === 'result' ? own(own(own(x.outcome.result, 'structuredContent'), 'adcp_error'), 'code') : undefined;

describe('withAccount', () => {
  test('adds the configured account where the task takes one and the call names none; never otherwise', () => {
    const agent = { account: ACCOUNT };
    expect(withAccount('get_products', { brief: 'x' }, agent)).toEqual({ brief: 'x', account: ACCOUNT });
    expect(withAccount('get_adcp_capabilities', {}, agent)).toEqual({});
    expect(withAccount('comply_test_controller', {}, agent)).toEqual({}); // its `account` is no account reference
    const own = { account: { account_id: 'other' } };
    expect(withAccount('get_products', own, agent)).toBe(own);
    expect(withAccount('get_products', { brief: 'x' }, {})).toEqual({ brief: 'x' });
    // A copy: the config's account is never shared with (or mutated through) a call's arguments.
    const sent = withAccount('get_products', {}, agent)['account'] as Record<string, unknown>;
    sent['account_id'] = 'changed';
    expect(agent.account.account_id).toBe('acc_123');
  });

  test('default probes are unchanged by it (the account is added when the call is made)', () => {
    const tools = [...ACCOUNT_TASKS, 'get_adcp_capabilities'].map((name) => ({ name }));
    const probes = defaultProbes(tools, seller({ account: ACCOUNT }));
    expect(
      probes.filter((p) => p.intent === 'valid' && p.tool !== 'sync_creatives').every((p) => p.arguments['account'] === undefined),
    ).toBe(true);
  });
});

describe('a seller that requires an account (live, stdio)', () => {
  test(
    'with `account` configured, every call whose task takes one names it, and none is refused for it',
    { timeout: 120_000 },
    async () => {
      const capture = await captureAgent(seller({ account: ACCOUNT }));
      expect(capture.agent.account).toEqual(ACCOUNT);
      const taking = capture.exchanges.filter((x) => ACCOUNT_TASKS.has(x.tool));
      expect(taking.length).toBeGreaterThan(5);
      expect(taking.filter((x) => JSON.stringify(x.request.arguments['account']) !== JSON.stringify(ACCOUNT)).map((x) => x.tool)).toEqual(
        [],
      );
      // Scenario steps too (pagination, versions, idempotency …), not only the probes.
      expect(taking.some((x) => x.scenario !== undefined)).toBe(true);
      expect(capture.exchanges.filter((x) => ['ACCOUNT_REQUIRED', 'ACCOUNT_NOT_FOUND'].includes(String(errorCode(x))))).toEqual([]);
    },
  );

  test('without it, read-only calls name no account and the seller refuses them with ACCOUNT_REQUIRED', { timeout: 120_000 }, async () => {
    const capture = await captureAgent(seller(), { scenarios: false });
    expect(capture.agent.account).toBeUndefined();
    const products = capture.exchanges.find((x) => x.tool === 'get_products' && x.intent === 'valid')!;
    expect(products.request.arguments['account']).toBeUndefined();
    expect(errorCode(products)).toBe('ACCOUNT_REQUIRED');
    // The mutating probe names the harness's own natural-key sandbox reference, which this seller does not know.
    const sync = capture.exchanges.find((x) => x.tool === 'sync_creatives')!;
    expect(sync.request.arguments['account']).toMatchObject({ sandbox: true });
    expect(errorCode(sync)).toBe('ACCOUNT_NOT_FOUND');
  });
});
