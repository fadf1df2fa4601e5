// One test case per (check, tool), aggregating every outcome of the pair (harness/report/test-cases.ts).
import { describe, expect, test } from 'vitest';
import { caseFailureBody, SHOWN_FAILURES, SHOWN_NOTES, testCases, type TestCase } from '../../harness/report/test-cases.ts';
import type { ReportOutcome } from '../../harness/report/model.ts';
import { outcome } from './fixtures.ts';

const ECHO = 'envelope.context-echo';
const pass = (call: number, tool = 'get_products'): ReportOutcome => outcome({ check: ECHO, tool, status: 'pass', call, durationMs: 10 });
const fail = (call: number, extra: Partial<ReportOutcome> = {}): ReportOutcome =>
  outcome({
    check: ECHO,
    tool: 'get_products',
    status: 'fail',
    call,
    durationMs: 10,
    message: `at /context: expected the sent context; found absent (call ${call})`,
    pointer: '/context',
    expected: 'the sent context',
    found: `absent (call ${call})`,
    fix: 'echo context',
    ...extra,
  });
const warn = (call: number, extra: Partial<ReportOutcome> = {}): ReportOutcome =>
  fail(call, {
    status: 'warn',
    severity: 'SHOULD',
    message: 'at /context: expected the sent context; found absent',
    found: 'absent',
    ...extra,
  });
const untested = (call: number, message = 'no answer to the call'): ReportOutcome =>
  outcome({ check: ECHO, tool: 'get_products', status: 'untested', call, message });
const na = (call: number, check = ECHO): ReportOutcome =>
  outcome({ check, tool: 'get_products', status: 'not-applicable', call, message: 'an error result' });

const one = (outcomes: ReportOutcome[], { junitAll = false, strict = false } = {}): TestCase => {
  const cases = testCases(outcomes, junitAll, strict);
  expect(cases).toHaveLength(1);
  return cases[0]!;
};

describe('testCases: one case per (check, tool), in first-seen order', () => {
  test('names are `<check> › <tool>` with no ordinal suffix, whatever the number or order of the calls', () => {
    const outcomes = [
      pass(0),
      outcome({ check: 'envelope.flat', tool: 'get_products', status: 'pass', call: 0 }),
      pass(1),
      pass(2, 'get_products (invalid input)'),
      outcome({ check: 'envelope.flat', tool: 'get_products', status: 'pass', call: 1 }),
    ];
    const cases = testCases(outcomes, false, false);
    expect(cases.map((c) => c.name)).toEqual([
      `${ECHO} › get_products`,
      'envelope.flat › get_products',
      `${ECHO} › get_products (invalid input)`,
    ]);
    expect(cases[0]!.outcomes).toEqual([outcomes[0], outcomes[2]]);
    // Adding or reordering probes never renames a case.
    expect(
      testCases([...outcomes].reverse(), false, false)
        .map((c) => c.name)
        .sort(),
    ).toEqual(cases.map((c) => c.name).sort());
  });

  test('all passing: passes; its time is the calls’ durations added up', () => {
    const c = one([pass(0), pass(1), na(2)]);
    expect(c).toMatchObject({ status: 'pass', message: '', notes: [], durationMs: 20 });
  });

  test('one failing call among many fails the case; the message names the call and its diagnosis', () => {
    const c = one([pass(0), fail(1, { evidence: { diagnosis: 'Your tool threw `TypeError: x`' } }), pass(2)]);
    expect(c.status).toBe('fail');
    expect(c.failing).toHaveLength(1);
    expect(c.message).toBe('1 of 3 calls failed: call #2: Your tool threw `TypeError: x` [MUST; AdCP · MCP response extraction]');
    expect(caseFailureBody(c)).toMatch(/^── call #2 \(1 of 1 failing\)\nat: {7}\/context\n/);
  });

  test('a single outcome keeps failureMessage() and evidenceLines() as they are', () => {
    const c = one([fail(0)]);
    expect(c.message).toBe('at /context: expected the sent context; found absent (call 0) [MUST; AdCP · MCP response extraction]');
    expect(caseFailureBody(c).split('\n')[0]).toBe('at:       /context');
  });

  test('many failing calls: a handful in full, then "… and N more failing calls"', () => {
    const outcomes = Array.from({ length: 40 }, (_, i) => (i % 2 ? fail(i) : pass(i)));
    const c = one(outcomes);
    expect(c.status).toBe('fail');
    expect(c.message.startsWith('20 of 40 calls failed: call #2: at /context')).toBe(true);
    expect(c.message.match(/call #\d+:/g)).toHaveLength(SHOWN_FAILURES);
    expect(c.message.endsWith(` · … and ${20 - SHOWN_FAILURES} more failing calls`)).toBe(true);
    const body = caseFailureBody(c);
    expect(body.match(/^── call #/gm)).toHaveLength(SHOWN_FAILURES);
    expect(body).toContain(`… and ${20 - SHOWN_FAILURES} more failing calls: call #12, call #14,`);
    expect(body.length).toBeLessThan(SHOWN_FAILURES * 1500 + 1000);
  });

  test('a baselined failure alone does not fail the case: it passes, with the expected failure in system-out', () => {
    const c = one([pass(0), fail(1, { baseline: 'TICKET-7' })]);
    expect(c.status).toBe('pass');
    expect(c.notes).toEqual([expect.stringMatching(/^expected failure \(baseline: TICKET-7\): fail at \/context/)]);
    // …but not a real failure beside it.
    const mixed = one([fail(0, { baseline: 'TICKET-7' }), fail(1)]);
    expect(mixed.status).toBe('fail');
    expect(mixed.failing.map((o) => o.call)).toEqual([1]);
    expect(mixed.message).toMatch(/^1 of 2 calls failed: call #2: /);
    expect(mixed.notes).toEqual([expect.stringMatching(/^expected failure \(baseline: TICKET-7\)/)]);
  });

  test('advisory failures (storyboards) pass with a note; a warning passes unless --strict', () => {
    expect(one([fail(0, { advisory: true })])).toMatchObject({
      status: 'pass',
      notes: [expect.stringMatching(/^advisory \(official storyboard/)],
    });
    const w = [pass(0), warn(1), warn(2)];
    expect(one(w)).toMatchObject({
      status: 'pass',
      notes: [
        'warning (SHOULD, fails only under --strict): at /context: expected the sent context; found absent [SHOULD; AdCP · MCP response extraction] (on 2 calls)',
      ],
    });
    expect(one(w, { strict: true })).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^2 of 3 calls failed: call #2: at \/context/),
    });
  });

  test('an untested call skips the case — never green when part of it was not verified — with a count', () => {
    const c = one([pass(0), untested(1), pass(2)]);
    expect(c).toMatchObject({ status: 'skip', message: 'untested: 1 of 3 calls: no answer to the call; 2 passed' });
    expect(one([untested(0, 'schemas missing')])).toMatchObject({ status: 'skip', message: 'untested: schemas missing' });
    const reasons = one([untested(0, 'a'), untested(1, 'b'), untested(2, 'a'), untested(3, 'c'), untested(4, 'd'), na(5)]);
    expect(reasons.message).toBe('untested: 5 of 6 calls: a | b | c | … (1 more reasons); 1 not applicable');
  });

  test('untested beats a warning that does not fail the run (the warning goes to system-out); a failure beats untested', () => {
    const c = one([warn(0), untested(1)]);
    expect(c.status).toBe('skip');
    expect(c.notes).toEqual([expect.stringMatching(/^warning \(SHOULD/)]);
    const f = one([fail(0), untested(1)]);
    expect(f.status).toBe('fail');
    expect(f.notes).toEqual(['untested (not verified): no answer to the call']);
    expect(one([warn(0), untested(1)], { strict: true }).status).toBe('fail');
  });

  test('all not-applicable: not a case, unless --junit-all (then skipped with the reason)', () => {
    expect(testCases([na(0), na(1)], false, false)).toEqual([]);
    expect(one([na(0), na(1)], { junitAll: true })).toMatchObject({
      status: 'skip',
      message: 'not-applicable: 2 of 2 calls: an error result',
    });
    expect(one([na(0)], { junitAll: true })).toMatchObject({ status: 'skip', message: 'not-applicable: an error result' });
  });

  test('system-out is bounded: identical lines once with their count, at most a handful of distinct ones', () => {
    const many = Array.from({ length: 30 }, (_, i) => warn(i, { found: `absent ${i}`, message: `found absent ${i}` }));
    const c = one(many);
    expect(c.notes).toHaveLength(SHOWN_NOTES + 1);
    expect(c.notes.at(-1)).toBe(`… and ${30 - SHOWN_NOTES} more (every outcome is in report.json)`);
  });

  test('session-level outcomes (no call) are counted as judgements', () => {
    const s = (status: ReportOutcome['status']) => outcome({ check: 'transport.tools-list', tool: 'tools/list', status, message: 'x' });
    expect(one([s('pass'), s('untested')]).message).toBe('untested: 1 of 2 judgements: x; 1 passed');
  });
});
