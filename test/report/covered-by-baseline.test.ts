// The precondition rule: an outcome left untested because a check failed on the same call (or the session)
// is covered when that failure is baselined — it leaves nothing unverified, is counted apart, and a seller
// whose every failure is baselined is "conformant with baseline". Anything less stays unverified.
import { describe, expect, test } from 'vitest';
import {
  agentVerdict,
  baselineUse,
  countOutcomes,
  coverByBaseline,
  exitCodeOf,
  leavesUnverified,
  verdictText,
  type ReportOutcome,
} from '../../harness/report/model.ts';
import { agent, outcome } from './fixtures.ts';

const CALL = 'transport.call';
const NO_ANSWER = 'no answer: see transport.call';

/** transport.call on two calls (get_signals timed out: call 1) and a check left untested by it. */
function session(opts: { baselined?: boolean; blockerStatus?: 'fail' | 'warn'; blockedAt?: number } = {}): ReportOutcome[] {
  return [
    outcome({ check: CALL, tool: 'get_products', status: 'pass', call: 0 }),
    outcome({
      check: CALL,
      tool: 'get_signals',
      status: opts.blockerStatus ?? 'fail',
      severity: opts.blockerStatus === 'warn' ? 'SHOULD' : 'MUST',
      call: 1,
      message: 'at /outcome/failure: expected an answer; found timeout',
      ...(opts.baselined === false ? {} : { baseline: 'TICKET-9' }),
    }),
    outcome({ check: 'envelope.flat', tool: 'get_products', status: 'pass', call: 0 }),
    outcome({
      check: 'envelope.flat',
      tool: 'get_signals',
      status: 'untested',
      call: 1,
      message: NO_ANSWER,
      blockedBy: { check: CALL, call: opts.blockedAt ?? 1 },
    }),
  ];
}

const untestedOf = (outcomes: readonly ReportOutcome[]) => outcomes.find((o) => o.status === 'untested')!;

describe('coverByBaseline', () => {
  test('an outcome whose blocker failed on the same call and is baselined is covered: conformant with baseline, exit 0', () => {
    const outcomes = coverByBaseline(session());
    expect(untestedOf(outcomes).coveredBy).toBe(`${CALL} › get_signals`);
    expect(leavesUnverified(untestedOf(outcomes), false)).toBe(false);
    expect(countOutcomes(outcomes)).toEqual({
      pass: 2,
      fail: 0,
      warn: 0,
      notApplicable: 0,
      untested: 0,
      baselined: 1,
      coveredByBaseline: 1,
    });
    const a = agent('a', outcomes, { baseline: { entries: 1, applied: true } });
    expect(agentVerdict(a, false)).toBe('conformant');
    expect(exitCodeOf({ agents: [a], strict: false, cutShort: null })).toBe(0);
    expect(baselineUse({ agents: [a], strict: false, cutShort: null }).text).toBe(
      'baselines: applied (1 expect entry; 1 expected failure not counted, nor 1 check they left untested)',
    );
    // Without the rule the same seller stayed incomplete (exit 3): its untested MUST counted as unverified.
    const uncovered = agent('a', session());
    expect(agentVerdict(uncovered, false)).toBe('incomplete');
  });

  test('a blocker that is not baselined covers nothing: the outcome stays unverified', () => {
    // A failing blocker: nonconformant anyway, and the untested outcome still counts as untested.
    const failed = coverByBaseline(session({ baselined: false }));
    expect(untestedOf(failed).coveredBy).toBeUndefined();
    expect(leavesUnverified(untestedOf(failed), false)).toBe(true);
    expect(countOutcomes(failed).untested).toBe(1);
    expect(agentVerdict(agent('a', failed), false)).toBe('nonconformant');
    // A warning (SHOULD) blocker does not fail the run: the agent is incomplete, not conformant.
    const warned = coverByBaseline(session({ baselined: false, blockerStatus: 'warn' }));
    expect(untestedOf(warned).coveredBy).toBeUndefined();
    expect(agentVerdict(agent('a', warned), false)).toBe('incomplete');
    // Baselined, the warning covers it too.
    const warnedBaselined = coverByBaseline(session({ blockerStatus: 'warn' }));
    expect(agentVerdict(agent('a', warnedBaselined), false)).toBe('conformant');
  });

  test('a blocker that failed on another call (another tool) does not count', () => {
    // The untested outcome names transport.call on call 0 (get_products), which passed; the baselined
    // failure is on call 1 (get_signals).
    const outcomes = coverByBaseline(session({ blockedAt: 0 }));
    expect(untestedOf(outcomes).coveredBy).toBeUndefined();
    expect(agentVerdict(agent('a', outcomes), false)).toBe('incomplete');
  });

  test('an untested outcome without a named precondition is never covered', () => {
    const outcomes = coverByBaseline([
      ...session(),
      outcome({ check: 'schema.adcp-response', tool: 'get_signals', status: 'untested', call: 1, message: 'schemas missing' }),
    ]);
    expect(outcomes.filter((o) => o.coveredBy === undefined && o.status === 'untested').map((o) => o.check)).toEqual([
      'schema.adcp-response',
    ]);
    expect(agentVerdict(agent('a', outcomes), false)).toBe('incomplete');
  });

  test('a session-level blocker (no call) is matched on the session, not on a call of the same check', () => {
    const sessionBlocked = (tools: ReportOutcome) => [
      tools,
      outcome({
        check: 'capabilities.adcp-tools',
        tool: 'tools/list',
        status: 'untested',
        message: 'tools/list failed: see transport.tools-list',
        blockedBy: { check: 'transport.tools-list' },
      }),
    ];
    const baselined = outcome({ check: 'transport.tools-list', tool: 'tools/list', status: 'fail', baseline: 'known' });
    expect(coverByBaseline(sessionBlocked(baselined))[1]?.coveredBy).toBe('transport.tools-list › tools/list');
    // The same check failing on a call is not the session's failure.
    expect(coverByBaseline(sessionBlocked({ ...baselined, call: 3 }))[1]?.coveredBy).toBeUndefined();
  });

  test('the precondition may itself be untested and covered (followed), but a cycle covers nothing', () => {
    const chain = coverByBaseline([
      outcome({ check: 'envelope.size', tool: 'get_products', status: 'fail', call: 2, baseline: 'big answers (TICKET-3)' }),
      outcome({
        check: 'envelope.extractable',
        tool: 'get_products',
        status: 'untested',
        call: 2,
        message: 'the only candidate text is over 1 MiB: see envelope.size',
        blockedBy: { check: 'envelope.size', call: 2 },
      }),
      outcome({
        check: 'envelope.status',
        tool: 'get_products',
        status: 'untested',
        call: 2,
        message: 'no AdCP payload extracted: see envelope.extractable',
        blockedBy: { check: 'envelope.extractable', call: 2 },
      }),
    ]);
    expect(chain.map((o) => o.coveredBy)).toEqual([undefined, 'envelope.size › get_products', 'envelope.size › get_products']);
    const cycle = coverByBaseline([
      outcome({ check: 'a.one', tool: 't', status: 'untested', call: 0, blockedBy: { check: 'a.two', call: 0 } }),
      outcome({ check: 'a.two', tool: 't', status: 'untested', call: 0, blockedBy: { check: 'a.one', call: 0 } }),
    ]);
    expect(cycle.map((o) => o.coveredBy)).toEqual([undefined, undefined]);
  });
});

describe('verdictText with a baseline', () => {
  test('says "conformant with baseline" and how many failures were baselined; unchanged without', () => {
    expect(verdictText('conformant', '3.1.19', '1.0.0', 3)).toBe(
      'conformant with baseline to AdCP 3.1.19 per adcp-conformance 1.0.0 (3 baselined failures not counted)',
    );
    expect(verdictText('nonconformant', '3.1.19', '1.0.0', 1)).toBe(
      'nonconformant to AdCP 3.1.19 per adcp-conformance 1.0.0 (1 baselined failure not counted)',
    );
    expect(verdictText('conformant', '3.1.19', '1.0.0')).toBe('conformant to AdCP 3.1.19 per adcp-conformance 1.0.0');
  });
});
