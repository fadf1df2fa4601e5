// A sandbox seller that misbehaves on the idempotency walk's concurrent pair (test/hostile/servers/
// idempotency-pair.mjs): it never answers the two requests, or answers them with garbage. That costs the
// pair's two calls and idempotency.concurrent (untested, pointing at the failed call), never the run: the
// walk goes on (the buys it booked are still canceled), every other idempotency rule is judged pass, and
// the session ends within its bounds.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import type { StdioAgentConfig } from '../../harness/config/types.ts';

const SELLER = fileURLToPath(new URL('./servers/idempotency-pair.mjs', import.meta.url));
const CALL_MS = 1_500;
const AGENT_MS = 30_000;
const OTHERS = [
  'idempotency.replay',
  'idempotency.conflict',
  'idempotency.missing-key',
  'idempotency.replayed-flag',
  'idempotency.error-not-cached',
  'idempotency.malformed-key',
];

const agent = (behaviour: string): StdioAgentConfig => ({
  name: `pair-${behaviour}`,
  transport: 'stdio',
  command: process.execPath,
  args: [SELLER, behaviour],
  env: {},
  timeouts: { connectMs: 10_000, callMs: CALL_MS, agentMs: AGENT_MS },
  production: false,
  sandbox: true,
  maxBytes: DEFAULT_MAX_BYTES,
  secrets: [],
});

describe.for([
  ['pair-hangs', 'timeout', /no answer within 1500 ms/],
  ['pair-garbage', 'protocol', /malformed JSON-RPC response to tools\/call: `result` is a string/],
] as const)('a seller whose concurrent pair %s', ([behaviour, kind, message]) => {
  test('costs the pair its calls and idempotency.concurrent only; the walk and the session go on', async () => {
    const started = performance.now();
    const capture = await captureAgent(agent(behaviour));
    expect(performance.now() - started).toBeLessThan(AGENT_MS);
    expect(capture.aborted).toBeUndefined();
    const pair = capture.exchanges.flatMap((x, i) => (x.scenario?.step.startsWith('concurrent-') ? [i] : []));
    expect(pair).toHaveLength(2);
    for (const i of pair) {
      const o = capture.exchanges[i]!.outcome;
      expect(o.kind).toBe('transport-error');
      if (o.kind === 'transport-error') expect(o.failure).toMatchObject({ kind, message: expect.stringMatching(message) });
    }
    // The buys booked before the pair are still canceled after it.
    const record = capture.scenarios?.find((r) => r.name === 'idempotency');
    expect(record?.created?.map((c) => c.cleanup)).toEqual(['cleaned-up', 'cleaned-up']);

    const outcomes = judgeAgent(capture, { agent: capture.agent });
    expect(outcomes.find((o) => o.check === 'idempotency.concurrent')).toMatchObject({
      status: 'untested',
      blockedBy: { check: 'transport.call', call: pair[0] },
    });
    for (const id of OTHERS) expect(outcomes.find((o) => o.check === id)?.status, id).toBe('pass');
    // Nothing else about the walk failed: only the pair's own calls.
    const walk = new Set(capture.exchanges.flatMap((x, i) => (x.scenario?.name === 'idempotency' && !pair.includes(i) ? [i] : [])));
    expect(
      outcomes.filter((o) => o.status === 'fail' && o.call !== undefined && walk.has(o.call)).map((o) => `${o.check} ${o.call}`),
    ).toEqual([]);
  }, 60_000);
});
