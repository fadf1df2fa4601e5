// Findings grouped by cause (findings.ts) and the gate line (gate.ts): one bug on seven calls is one
// finding, distinct messages stay apart, and the gate line is computed from the exit code's own function.
import { describe, expect, test } from 'vitest';
import { callList, catalogFindings, groupSpread, storyboardFailures } from '../../harness/report/findings.ts';
import { gate, headline, tallyText } from '../../harness/report/gate.ts';
import { gateExitCode, type Comparison, type ReportOutcome, type RunReport } from '../../harness/report/model.ts';
import { plain, renderTerminalSummary } from '../../harness/report/terminal.ts';
import { agent, outcome } from './fixtures.ts';

const uuid = (n: number) => `0000000${n}-aaaa-4bbb-8ccc-${String(n).padStart(12, '0')}`;

/** envelope.context-echo failing on 7 of 9 calls (one more not applicable), each with its own correlation id. */
function echoOutcomes(): ReportOutcome[] {
  const tools = ['get_products', 'list_creatives', 'get_signals', 'get_products (pagination: page-1)', 'get_products (pagination: page-2)'];
  const failing = Array.from({ length: 7 }, (_, i) => {
    const expected = `the sent context {"correlation_id":"adcp-conformance.shop.${i + 1}.${uuid(i + 1)}"}`;
    return outcome({
      check: 'envelope.context-echo',
      tool: tools[i % tools.length]!,
      status: 'fail',
      message: `at /result/structuredContent/context: expected ${expected}, found absent`,
      pointer: '/result/structuredContent/context',
      expected,
      found: 'absent',
      fix: 'copy the request context into the response',
      durationMs: 10 + i,
      evidence: { request: `${tools[i % tools.length]} {"context":{}}`, answer: 'structuredContent: {}' },
    });
  });
  return [
    ...failing,
    outcome({ check: 'envelope.context-echo', tool: 'get_media_buys', status: 'pass' }),
    outcome({ check: 'envelope.context-echo', tool: 'get_media_buy_delivery', status: 'pass' }),
    outcome({ check: 'envelope.context-echo', tool: 'initialize', status: 'not-applicable', message: 'no call' }),
  ];
}

function schemaOutcomes(): ReportOutcome[] {
  const at = (tool: string, pointer: string, found: string) =>
    outcome({
      check: 'schema.adcp-response',
      tool,
      status: 'fail',
      message: `at ${pointer}: expected a string, found ${found}`,
      pointer,
      expected: 'a string',
      found,
    });
  return [
    at('get_products', '/products/0/name', '1'),
    at('get_products (page-2)', '/products/3/name', '2'),
    at('get_signals', '/signals', 'null'),
  ];
}

const report = (outcomes: ReportOutcome[], extra: Partial<RunReport> = {}): RunReport => ({
  strict: false,
  cutShort: null,
  agents: [agent('shop', outcomes)],
  ...extra,
});

describe('catalogFindings', () => {
  test('one check failing on 7 of 9 calls is one finding, its calls listed, one message (ids and ordinals aside)', () => {
    const fail = catalogFindings(report(echoOutcomes())).find((s) => s.kind === 'fail')!;
    expect(fail.findings).toBe(1);
    expect(fail.outcomes).toBe(7);
    const g = fail.groups[0]!;
    expect(groupSpread(g)).toBe('failed on 7 of 9 calls');
    expect(g.variants).toHaveLength(1);
    expect(g.variants[0]!.tools).toHaveLength(7);
  });

  test('different expectations at different places are distinct messages; array indexes alone are not', () => {
    const g = catalogFindings(report(schemaOutcomes())).find((s) => s.kind === 'fail')!.groups[0]!;
    expect(g.variants.map((v) => v.tools)).toEqual([['get_products', 'get_products (page-2)'], ['get_signals']]);
  });

  test('failures, flaky, warnings, not verified and baselined go to their own sections; storyboards apart', () => {
    const outcomes = [
      outcome({ check: 'envelope.status', tool: 'a', status: 'fail', message: 'x' }),
      outcome({ check: 'envelope.status', tool: 'b', status: 'fail', message: 'x', flaky: true }),
      outcome({ check: 'error.recovery', tool: 'a', status: 'warn', severity: 'SHOULD', message: 'w' }),
      outcome({ check: 'schema.adcp-response', tool: 'a', status: 'untested', message: 'no schemas' }),
      outcome({ check: 'envelope.flat', tool: 'a', status: 'fail', message: 'f', baseline: 'TICKET-1' }),
      outcome({ check: 'storyboard.media_buy', tool: 'p/s › c', status: 'fail', message: 's', advisory: true }),
      outcome({ check: 'storyboard.media_buy', tool: 'p/s › d', status: 'fail', message: 's', advisory: true }),
    ];
    const sections = catalogFindings(report(outcomes));
    expect(Object.fromEntries(sections.map((s) => [s.kind, s.groups.map((g) => g.check)]))).toEqual({
      fail: ['envelope.status'],
      flaky: ['envelope.status'],
      warn: ['error.recovery'],
      untested: ['schema.adcp-response'],
      baselined: ['envelope.flat'],
      covered: [],
    });
    const storyboards = storyboardFailures(report(outcomes));
    expect(storyboards.map((g) => [g.check, g.outcomes.length])).toEqual([['storyboard.media_buy', 2]]);
  });

  test('an unreachable agent: its untested checks are one line, its failures stay findings', () => {
    const down = agent(
      'gone',
      [
        outcome({ check: 'transport.initialize', tool: 'initialize', status: 'fail', message: 'refused' }),
        outcome({ check: 'envelope.flat', tool: '*', status: 'untested', message: 'no session' }),
        outcome({ check: 'envelope.status', tool: '*', status: 'untested', message: 'no session' }),
      ],
      { reachable: false },
    );
    const sections = catalogFindings({ strict: false, cutShort: null, agents: [down] });
    const untested = sections.find((s) => s.kind === 'untested')!;
    expect([untested.groups.length, untested.unreachable.map((u) => u.outcomes), untested.outcomes, untested.findings]).toEqual([
      0,
      [2],
      2,
      1,
    ]);
    expect(sections.find((s) => s.kind === 'fail')!.groups.map((g) => g.check)).toEqual(['transport.initialize']);
  });

  test('callList: a repeated tool once with its count, bounded', () => {
    expect(callList(['a', 'b', 'a', 'c', 'd'], 3)).toBe('a ×2, b, c, … 1 more');
  });
});

describe('the terminal: one finding per cause', () => {
  test('the 7 calls are one block: the check once, where, the first call’s evidence, fix and spec once', () => {
    const text = renderTerminalSummary(report(echoOutcomes()), plain);
    expect(text).toContain('Failures (7 outcomes, 1 finding)');
    expect(text.match(/envelope\.context-echo/g)).toHaveLength(1);
    expect(text).toContain('  ✗ shop  envelope.context-echo  [MUST]  failed on 7 of 9 calls\n');
    expect(text).toContain(
      '      on:       get_products ×2, list_creatives ×2, get_signals, get_products (pagination: page-1), get_products (pagination: page-2)\n',
    );
    expect(text.match(/^ {6}fix: /gm)).toHaveLength(1);
    expect(text.match(/^ {6}spec: /gm)).toHaveLength(1);
    expect(text.match(/^ {6}sent: /gm)).toHaveLength(1);
  });

  test('distinct messages: each with its calls and its first evidence', () => {
    const text = renderTerminalSummary(report(schemaOutcomes()), plain);
    expect(text).toContain('  ✗ shop  schema.adcp-response  [MUST]  failed on 3 of 3 calls\n');
    expect(text).toContain('      on:       get_products, get_products (page-2) (2 calls)\n      at:       /products/0/name\n');
    expect(text).toContain('      on:       get_signals (1 call)\n      at:       /signals\n');
  });

  test('--quiet: the table, one line per failing check, the headline and the gate — nothing else', () => {
    const outcomes = [
      ...echoOutcomes(),
      ...schemaOutcomes(),
      outcome({ check: 'error.recovery', tool: 'a', status: 'warn', severity: 'SHOULD' }),
    ];
    const lines = renderTerminalSummary(report(outcomes), plain, { quiet: true, reports: ['reports/report.json'] })
      .trim()
      .split('\n');
    expect(lines).toEqual([
      'agent  verdict        AdCP  pass  fail  warn  untested  n/a  baselined',
      'shop   nonconformant  3.0      2    10     1         0    1          0',
      '',
      expect.stringMatching(
        /^ {2}✗ shop {2}envelope\.context-echo {2}\[MUST\] {2}failed on 7 of 9 calls {2}at \/result\/structuredContent\/context: /,
      ),
      '  ✗ shop  schema.adcp-response  [MUST]  failed on 3 of 3 calls  at /products/0/name: expected a string, found 1',
      'reports: reports/report.json',
      '',
      '✗ nonconformant to AdCP 3.0 per adcp-conformance 0.1.0',
      'gate: FAIL — 1 nonconformant (exit 1)',
    ]);
  });
});

describe('the gate line and the headline', () => {
  const pass = outcome({ check: 'envelope.flat', tool: 't', status: 'pass' });
  const fail = outcome({ check: 'envelope.status', tool: 't', status: 'fail', message: 'x' });
  const quiet: Comparison = {
    against: { startedAt: null, harnessVersion: null },
    newFailures: [],
    fixed: [],
    flaky: [],
    stillFailing: 1,
    newlyUnreachable: [],
    backOnline: [],
    added: [],
    removed: [],
  };
  const down = agent('down', [], {
    index: 2,
    reachable: false,
    down: { cause: 'command-not-found', detail: 'spawn nope ENOENT', fix: 'check the command' },
  });
  const mixed: RunReport = {
    strict: false,
    cutShort: null,
    agents: [agent('a', [fail]), agent('b', [fail], { index: 1 }), down],
  };

  test.for([
    ['conformant', { strict: false, cutShort: null, agents: [agent('a', [pass])] } as RunReport, 'gate: PASS — conformant (exit 0)'],
    ['nonconformant and unreachable', mixed, 'gate: FAIL — 2 nonconformant, 1 unreachable (exit 3)'],
    ['regressions, none', { ...mixed, failOn: 'regressions', comparison: quiet } as RunReport, 'gate: PASS — no regressions (exit 0)'],
    [
      'regressions, one',
      {
        ...mixed,
        failOn: 'regressions',
        comparison: { ...quiet, newFailures: [{ agent: 'a', check: 'c', tool: 't', message: 'm' }] },
      } as RunReport,
      'gate: FAIL — 1 regression since the compared run (exit 1)',
    ],
    ['cut short', { ...mixed, agents: [agent('a', [pass])], cutShort: 'interrupted' } as RunReport, 'gate: FAIL — run cut short (exit 3)'],
    [
      'baselined',
      {
        strict: false,
        cutShort: null,
        agents: [agent('a', [pass, { ...fail, baseline: 'TICKET-1' }], { baseline: { entries: 1, applied: true } })],
      } as RunReport,
      'gate: PASS — conformant with baseline; 1 baselined failure not counted (exit 0)',
    ],
  ] as const)('%s', ([, r, line]) => {
    const g = gate(r);
    expect(g.text).toBe(line);
    // One function decides both: the exit code the process returns and the one the line states.
    expect(g.exitCode).toBe(gateExitCode(r));
    expect(g.text.endsWith(`(exit ${gateExitCode(r)})`)).toBe(true);
  });

  test('the headline counts verdicts, unreachable ones with their cause', () => {
    expect(tallyText(mixed)).toBe('2 nonconformant · 1 unreachable (command not found)');
    expect(headline(mixed, '9.9.9').text).toBe(
      '3 agents: 2 nonconformant · 1 unreachable (command not found) — incomplete: conformance to AdCP 3.0 not established per adcp-conformance 9.9.9',
    );
    expect(headline({ strict: false, cutShort: null, agents: [agent('a', [pass]), agent('b', [pass])] }, '9.9.9').text).toBe(
      '2 agents conformant to AdCP 3.0 per adcp-conformance 9.9.9',
    );
  });
});
