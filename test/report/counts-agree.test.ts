// Every count agrees across the terminal, summary.md, report.html and report.json: one report with every
// kind of outcome (a bug on seven calls, flaky, warnings, untested MUST and SHOULD, baselined, untested
// behind a baselined failure, storyboards, an unreachable seller) rendered through all four, the numbers
// read back out of each and compared — per agent, per section, the storyboards apart, the headline tally
// and the gate.
import { describe, expect, test } from 'vitest';
import { badgeOf } from '../../harness/report/badge.ts';
import { renderHtmlReport } from '../../harness/report/html.ts';
import { agentProperties } from '../../harness/report/junit.ts';
import { buildReportJson } from '../../harness/report/json.ts';
import { renderSummaryMarkdown } from '../../harness/report/markdown.ts';
import type { ReportOutcome, RunReport } from '../../harness/report/model.ts';
import { plain, renderTerminalSummary } from '../../harness/report/terminal.ts';
import { agent, outcome } from './fixtures.ts';

const COLUMNS = ['pass', 'fail', 'warn', 'untested', 'notApplicable', 'baselined'] as const;
type Column = (typeof COLUMNS)[number];
type Table = Record<string, Record<Column, number>>;
/** Section → [outcomes, findings]. */
type Sections = Record<string, [number, number]>;

function richReport(): RunReport {
  const echo = Array.from({ length: 7 }, (_, i) =>
    outcome({
      check: 'envelope.context-echo',
      tool: `tool_${i % 3}`,
      status: 'fail',
      message: `at /context: expected ctx ${i}, found absent`,
    }),
  );
  const alpha: ReportOutcome[] = [
    ...echo,
    outcome({ check: 'envelope.context-echo', tool: 'tool_x', status: 'pass' }),
    outcome({ check: 'envelope.status', tool: 'tool_0', status: 'fail', message: 'flaky one', flaky: true }),
    outcome({ check: 'error.recovery', tool: 'tool_0', status: 'warn', severity: 'SHOULD', message: 'no recovery' }),
    outcome({ check: 'error.recovery', tool: 'tool_1', status: 'warn', severity: 'SHOULD', message: 'no recovery' }),
    outcome({ check: 'schema.adcp-response', tool: 'tool_0', status: 'untested', message: 'no schemas' }),
    outcome({ check: 'capabilities.tool', tool: 'get_adcp_capabilities', status: 'untested', severity: 'SHOULD', message: 'absent' }),
    outcome({ check: 'transport.call', tool: 'tool_2', status: 'fail', message: 'timed out', baseline: 'TICKET-1' }),
    outcome({ check: 'envelope.flat', tool: 'tool_2', status: 'untested', message: 'no answer', coveredBy: 'transport.call › tool_2' }),
    outcome({ check: 'error.code', tool: 'tool_0', status: 'not-applicable', message: 'not an error' }),
    outcome({ check: 'storyboard.media_buy', tool: 'p/s › a', status: 'pass', advisory: true }),
    outcome({ check: 'storyboard.media_buy', tool: 'p/s › b', status: 'fail', message: 'sb', advisory: true }),
    outcome({ check: 'storyboard.media_buy', tool: 'p/s › c', status: 'fail', message: 'sb', advisory: true }),
    outcome({ check: 'storyboard.signals', tool: 'p/s › d', status: 'untested', message: 'sb', advisory: true }),
    outcome({ check: 'storyboard.signals', tool: 'p/s › e', status: 'not-applicable', message: 'sb', advisory: true }),
  ];
  const down = agent(
    'delta',
    [
      outcome({ check: 'transport.initialize', tool: 'initialize', status: 'fail', message: 'connection refused' }),
      outcome({ check: 'envelope.flat', tool: '(no session)', status: 'untested', message: 'no session' }),
      outcome({ check: 'envelope.status', tool: '(no session)', status: 'untested', message: 'no session' }),
    ],
    {
      index: 2,
      reachable: false,
      down: { cause: 'connection-refused', detail: 'connection refused at 127.0.0.1:9', fix: 'is the server running?' },
    },
  );
  return {
    strict: false,
    cutShort: null,
    run: {
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:01.000Z',
      harnessVersion: '0.1.0',
      node: 'v22',
      mcpSdkVersion: '1',
      adcpSdkVersion: '6',
      schemaSource: { kind: 'sdk', location: 'x', versions: ['3.0.6'] },
      config: null,
      storyboards: { selection: 'universal', corpusVersion: '3.0.6', strict: false },
    },
    agents: [
      agent('alpha', alpha, { baseline: { entries: 1, applied: true } }),
      agent('bravo', [outcome({ check: 'envelope.flat', tool: 'tool_0', status: 'pass' })], { index: 1 }),
      down,
    ],
  };
}

const nums = (cells: string[]): Record<Column, number> =>
  Object.fromEntries(COLUMNS.map((c, i) => [c, Number(cells[i])])) as Record<Column, number>;

function fromTerminal(text: string): { table: Table; sections: Sections; storyboards: Record<string, string> } {
  const table: Table = {};
  for (const m of text.matchAll(/^(alpha|bravo|delta) .*?((?: +\d+){6})$/gm)) table[m[1]!] = nums(m[2]!.trim().split(/ +/));
  const sections: Sections = {};
  for (const m of text.matchAll(/^([A-Z][^(\n]*?) \((\d+) outcomes?, (\d+) findings?/gm)) sections[m[1]!] = [Number(m[2]), Number(m[3])];
  const storyboards: Record<string, string> = {};
  for (const m of text.matchAll(/^ {2}(alpha|bravo|delta) {2}(\d+ pass, \d+ fail, \d+ untested, \d+ n\/a)$/gm)) storyboards[m[1]!] = m[2]!;
  return { table, sections, storyboards };
}

function fromMarkdown(md: string): { table: Table; sections: Sections; storyboards: Record<string, string> } {
  const table: Table = {};
  for (const m of md.matchAll(/^\| (alpha|bravo|delta) \| [^\n]*?((?:\| \d+ ){6})\|$/gm))
    table[m[1]!] = nums(
      m[2]!
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean),
    );
  const sections: Sections = {};
  for (const m of md.matchAll(/^## (.+?) \((\d+) outcomes?, (\d+) findings?/gm)) sections[m[1]!] = [Number(m[2]), Number(m[3])];
  const storyboards: Record<string, string> = {};
  for (const m of md.matchAll(/^- \*\*(alpha|bravo|delta)\*\*: (\d+ pass, \d+ fail, \d+ untested, \d+ n\/a)$/gm))
    storyboards[m[1]!] = m[2]!;
  return { table, sections, storyboards };
}

function fromHtml(html: string): { table: Table; sections: Record<string, [number, number]>; storyboards: Record<string, string> } {
  const table: Table = {};
  const storyboards: Record<string, string> = {};
  const HTML_KEYS: Record<Column, string> = {
    pass: 'pass',
    fail: 'fail',
    warn: 'warn',
    untested: 'untested',
    notApplicable: 'n/a',
    baselined: 'baselined',
  };
  for (const card of html.split('<article').slice(1)) {
    const name = /data-agent="([^"]*)"/.exec(card)?.[1] ?? '';
    table[name] = Object.fromEntries(
      COLUMNS.map((c) => [c, Number(new RegExp(`data-count="${HTML_KEYS[c]}">[^<]*<span class="n">(\\d+)<`).exec(card)?.[1])]),
    ) as Record<Column, number>;
    const sb = /data-storyboards>storyboards \(apart\): ([^<]*)</.exec(card)?.[1];
    if (sb) storyboards[name] = sb;
  }
  const sections: Record<string, [number, number]> = {};
  for (const m of html.matchAll(/class="finding-section" id="[^"]*" data-status="([a-z]+)" data-outcomes="(\d+)" data-findings="(\d+)"/g))
    sections[m[1]!] = [Number(m[2]), Number(m[3])];
  return { table, sections, storyboards };
}

describe('one report, four renderers, the same numbers', () => {
  const report = richReport();
  const terminal = fromTerminal(renderTerminalSummary(report, plain));
  const markdownText = renderSummaryMarkdown(report);
  const markdown = fromMarkdown(markdownText);
  const htmlText = renderHtmlReport(report);
  const html = fromHtml(htmlText);
  const json = buildReportJson(report);
  const jsonTable: Table = Object.fromEntries(json.agents.map((a) => [a.name, nums(COLUMNS.map((c) => String(a.summary[c])))]));

  test('the per-agent table: terminal = summary.md = report.html cards = report.json (catalog checks only)', () => {
    expect(Object.keys(jsonTable)).toEqual(['alpha', 'bravo', 'delta']);
    expect(terminal.table).toEqual(jsonTable);
    expect(markdown.table).toEqual(jsonTable);
    expect(html.table).toEqual(jsonTable);
    expect(jsonTable['alpha']).toEqual({ pass: 1, fail: 8, warn: 2, untested: 2, notApplicable: 1, baselined: 1 });
  });

  test('each section adds up to its table column, the same in every renderer', () => {
    const total = (c: Column | 'coveredByBaseline') => json.summary[c];
    const expected = {
      fail: [total('fail') - 1, 2],
      flaky: [1, 1],
      warn: [total('warn'), 1],
      untested: [total('untested'), 3],
      baselined: [total('baselined'), 1],
      covered: [total('coveredByBaseline'), 1],
    };
    // alpha's 7 echo failures are one finding, delta's initialize failure another.
    expect(expected.fail).toEqual([8, 2]);
    expect(html.sections).toEqual({ ...expected, storyboard: [2, 1] });
    expect(terminal.sections).toEqual({
      Failures: expected.fail,
      Flaky: expected.flaky,
      'Warnings, SHOULD': expected.warn,
      'Not verified': expected.untested,
      'Expected failures from the baseline': expected.baselined,
      'Left untested by a baselined failure': expected.covered,
    });
    expect(markdown.sections).toEqual({
      Failures: expected.fail,
      Flaky: expected.flaky,
      'Warnings, SHOULD': expected.warn,
      'Not verified': expected.untested,
      'Expected failures (baseline)': expected.baselined,
      'Left untested by a baselined failure': expected.covered,
      'Storyboard failures': [2, 1],
    });
  });

  test('the JUnit count properties and the badges say the same numbers (storyboards apart)', () => {
    for (const a of report.agents) {
      const props = Object.fromEntries(agentProperties(a, report.strict));
      const summary = json.agents.find((j) => j.name === a.name)!.summary;
      for (const [k, v] of Object.entries(summary)) expect(props[`count.${k}`], `${a.name} count.${k}`).toBe(String(v));
      const storyboards = json.agents.find((j) => j.name === a.name)!.storyboards;
      for (const [k, v] of Object.entries(storyboards ?? {}))
        expect(props[`storyboards.${k}`], `${a.name} storyboards.${k}`).toBe(String(v));
    }
    expect(
      badgeOf(
        report.agents.find((a) => a.name === 'alpha')!,
        report.strict,
      ).message,
    ).toMatch(new RegExp(`^nonconformant · ${jsonTable['alpha']!.fail} fail\\b`));
  });

  test('storyboards are counted apart, the same everywhere', () => {
    const alpha = json.agents.find((a) => a.name === 'alpha')?.storyboards;
    expect(alpha).toEqual({ pass: 1, fail: 2, untested: 1, notApplicable: 1 });
    const text = `${alpha!.pass} pass, ${alpha!.fail} fail, ${alpha!.untested} untested, ${alpha!.notApplicable} n/a`;
    for (const r of [terminal, markdown, html]) expect(r.storyboards).toEqual({ alpha: text });
    expect(/data-status="storyboard" data-outcomes="(\d+)"/.exec(htmlText)?.[1]).toBe('2');
  });

  test('the headline tally and the gate line are the same in all three, and the gate states report.json’s exit code', () => {
    const tally = '3 agents: 1 nonconformant · 1 unreachable (connection refused) · 1 conformant';
    const gateLine = `gate: FAIL — 1 nonconformant, 1 unreachable; 1 baselined failure not counted (exit ${json.exitCode})`;
    expect(json.exitCode).toBe(3);
    const lines = renderTerminalSummary(report, plain).trimEnd().split('\n');
    expect(lines.at(-1)).toBe(gateLine);
    expect(lines.at(-2)).toContain(tally);
    expect(markdownText).toContain(`**${gateLine}**`);
    expect(markdownText).toContain(`\n**Result:** ⚠️ ${tally} — `);
    expect(htmlText).toContain(`>${gateLine}</p>`);
    expect(htmlText).toContain(`<p id="run-verdict" class="verdict v-incomplete">⚠ ${tally} — `);
  });
});
