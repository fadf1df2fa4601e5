// A deliberately faulty reference seller (its get_products success alters the echoed `context`): the
// storyboards fail the step, and the very call that carried it — an Exchange recorded by the proxy —
// fails the catalog's envelope.context-echo check too. One wire, both verdicts.
import { describe, expect, test } from 'vitest';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { runAgainst, stdioReference } from './helpers.ts';

describe('storyboards against a faulty seller', () => {
  test('a storyboard failure and our envelope failure land on the same proxied call', { timeout: 120_000 }, async () => {
    const agent = stdioReference({ faults: ['context-altered'] });
    const { run } = await runAgainst(agent, ['error_compliance']);

    const storyboardFail = run.outcomes.find(
      (o) => o.tool === 'version_negotiation/supported_major_version › field_value context.correlation_id',
    );
    expect(storyboardFail).toMatchObject({ status: 'fail', check: 'storyboard.error_compliance' });
    expect(storyboardFail!.found).toMatch(/altered-by-seller-/);
    expect(storyboardFail!.calls).toHaveLength(1);
    const seq = storyboardFail!.calls![0]!;

    // Judge the storyboard calls with the catalog, as a capture of this agent.
    const exchanges = run.calls.flatMap((c) => (c.call.exchange ? [c.call.exchange] : []));
    const capture: AgentCapture = {
      agent: { name: agent.name, transport: 'stdio', production: false, sandbox: true },
      initialize: { ok: true, protocolVersion: exchanges[0]?.protocolVersion, serverInfo: {}, durationMs: 0 },
      exchanges,
    };
    const judged = judgeAgent(capture, {}, (id) => id === 'envelope.context-echo');
    const index = exchanges.findIndex((x) => x === run.calls.find((c) => c.call.seq === seq)!.call.exchange);
    expect(index).toBeGreaterThanOrEqual(0);
    const ours = judged.find((o) => o.call === index);
    expect(ours).toMatchObject({ check: 'envelope.context-echo', tool: 'get_products', status: 'fail' });
    // A call of a tool the fault leaves alone passes both.
    const capsCall = run.calls.find((c) => c.step === 'capability_discovery/get_capabilities');
    const capsIndex = exchanges.indexOf(capsCall!.call.exchange!);
    expect(judged.find((o) => o.call === capsIndex)?.status).toBe('pass');
    expect(run.outcomes.find((o) => o.tool === 'capability_discovery/get_capabilities › field_value context.correlation_id')?.status).toBe(
      'pass',
    );
  });
});
