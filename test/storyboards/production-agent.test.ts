// An agent not marked sandbox: the storyboards' mutating calls are refused at the proxy (never sent),
// and the steps that needed them are untested with that reason — not failed, not passed.
import { describe, expect, test } from 'vitest';
import { runAgainst, stdioReference } from './helpers.ts';

describe('storyboards against an agent not marked sandbox', () => {
  test('mutating tasks are not sent; their steps are untested, the reads still run', { timeout: 120_000 }, async () => {
    const { run } = await runAgainst(stdioReference({}, { sandbox: false }), ['idempotency'], { sandbox: false });
    const mutating = run.calls.filter((c) => c.call.tool === 'create_media_buy');
    expect(mutating.length).toBeGreaterThan(0);
    for (const c of mutating) {
      expect(c.call.refused).toMatch(/create_media_buy changes state, and the agent is not marked sandbox/);
      expect(c.call.exchange).toBeUndefined(); // nothing reached the agent, nothing to judge
    }
    const missingKey = run.outcomes.find((o) => o.tool === 'missing_key/create_media_buy_missing_key › step');
    expect(missingKey).toMatchObject({ status: 'untested', message: expect.stringMatching(/^not run: create_media_buy changes state/) });
    expect(run.outcomes.some((o) => o.status === 'fail')).toBe(false);
    expect(
      run.outcomes.find((o) => o.tool === 'capability_discovery/get_capabilities › field_value adcp.idempotency.supported')?.status,
    ).toBe('pass');
  });
});
