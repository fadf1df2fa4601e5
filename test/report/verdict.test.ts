// Verdicts: never green on the unverified (pure functions over report models).
import { describe, expect, test } from 'vitest';
import { agentVerdict, exitCodeOf, runVerdict, verdictText, type AgentReport, type ReportOutcome } from '../../harness/report/model.ts';

const o = (status: ReportOutcome['status'], severity: 'MUST' | 'SHOULD' = 'MUST', extra: Partial<ReportOutcome> = {}): ReportOutcome => ({
  check: 'envelope.flat',
  tool: 'get_products',
  status,
  severity,
  message: status === 'pass' ? '' : 'why',
  spec: 'spec',
  specUrl: 'https://example.test',
  ...extra,
});

function agent(outcomes: ReportOutcome[], extra: Partial<AgentReport> = {}): AgentReport {
  return {
    name: 'a',
    index: 0,
    transport: 'stdio',
    protocolVersion: '2025-06-18',
    server: { name: 's', version: '1' },
    adcpVersion: '3.0.6',
    adcpVersionReason: 'default',
    layers: { validate_root: 0, legacy_wrapper: 0, missing: 0, schema: 0 },
    reachable: true,
    incomplete: null,
    aborted: null,
    durationMs: 1,
    outcomes,
    ...extra,
  };
}

describe('agent verdicts', () => {
  test('every applicable MUST passed: conformant (not-applicable outcomes do not count)', () => {
    expect(agentVerdict(agent([o('pass'), o('not-applicable'), o('warn', 'SHOULD'), o('untested', 'SHOULD')]), false)).toBe('conformant');
  });
  test('a MUST untested: incomplete, never conformant', () => {
    expect(agentVerdict(agent([o('pass'), o('untested')]), false)).toBe('incomplete');
  });
  test('a SHOULD untested under --strict: incomplete', () => {
    expect(agentVerdict(agent([o('pass'), o('untested', 'SHOULD')]), true)).toBe('incomplete');
  });
  test('a MUST failed: nonconformant, even with something untested', () => {
    expect(agentVerdict(agent([o('fail'), o('untested')]), false)).toBe('nonconformant');
  });
  test('a baselined failure does not count; a warning counts under --strict', () => {
    expect(agentVerdict(agent([o('fail', 'MUST', { baseline: 'TICKET-1' })]), false)).toBe('conformant');
    expect(agentVerdict(agent([o('warn', 'SHOULD')]), true)).toBe('nonconformant');
  });
  test('unreachable or cut short: incomplete whatever the outcomes', () => {
    expect(agentVerdict(agent([o('fail')], { reachable: false }), false)).toBe('incomplete');
    expect(agentVerdict(agent([o('pass')], { incomplete: 'run interrupted' }), false)).toBe('incomplete');
  });
  test('no outcomes at all is not conformant: there is nothing verified', () => {
    expect(runVerdict({ agents: [], strict: false, cutShort: null })).toBe('incomplete');
  });
});

describe('run verdict and exit code', () => {
  test('incomplete beats nonconformant (exit 3 over 1); a clean run exits 0', () => {
    const clean = agent([o('pass')]);
    const bad = agent([o('fail')], { name: 'b' });
    const open = agent([o('untested')], { name: 'c' });
    expect(exitCodeOf({ agents: [clean], strict: false, cutShort: null })).toBe(0);
    expect(exitCodeOf({ agents: [clean, bad], strict: false, cutShort: null })).toBe(1);
    expect(exitCodeOf({ agents: [clean, bad, open], strict: false, cutShort: null })).toBe(3);
    expect(exitCodeOf({ agents: [clean], strict: false, cutShort: 'interrupted' })).toBe(3);
  });
  test('the words are qualified and never say certified or verified', () => {
    const text = verdictText('conformant', '3.0.6', '0.1.0');
    expect(text).toBe('conformant to AdCP 3.0.6 per adcp-conformance 0.1.0');
    for (const v of ['conformant', 'nonconformant', 'incomplete'] as const)
      expect(verdictText(v, '3.1', '1.0.0')).not.toMatch(/certif|verified/i);
  });
});
