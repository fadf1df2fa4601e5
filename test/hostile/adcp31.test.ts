// Hostile battery · AdCP 3.1: a seller whose release list, protocol list, version echo and 3.1 error fields
// (vendor code, issues, field) are hostile and huge. What reads them — the pin, the release judged, the
// negotiation scenarios, version.echo, error.vendor-code, error.field-pointer, capabilities.required-tasks —
// stays bounded, never throws, and reports every finding escaped and redacted.
import { describe, expect, test } from 'vitest';
import { agentOf, expectContained, expectFinding, family, stdio } from './battery.ts';

const adcp31 = family('adcp31', [stdio('adcp31-hostile')]);

describe('hostile AdCP 3.1 negotiation and errors', () => {
  test('the run stays bounded, reports are valid, no unsafe character or secret anywhere', async () => {
    expectContained(await adcp31.of('adcp31-hostile'));
  });

  test('the hostile answers are findings, never a pass and never a harness error', async () => {
    const run = await adcp31.of('adcp31-hostile');
    // A code of hostile text breaks the 1–64 character rule (vendor-code then defers to error.code).
    expectFinding(run, 'adcp31-hostile', 'error.code', /chars/);
    const agent = agentOf(run, 'adcp31-hostile');
    expect(agent.verdict).not.toBe('conformant');
    // Every 3.1 rule that read the hostile fields gave an outcome (judged or set aside with a reason).
    for (const id of ['version.echo', 'version.release-negotiation', 'error.field-pointer', 'capabilities.required-tasks'])
      expect(
        agent.outcomes.filter((o) => o.check === id),
        id,
      ).not.toEqual([]);
    expect(agent.outcomes.filter((o) => /harness error/i.test(o.message))).toEqual([]);
  });
});
