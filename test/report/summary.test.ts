// One summary of a run, computed once, that the terminal, Markdown and HTML renderers format: its
// numbers are the ones each renderer prints.
import { describe, expect, test } from 'vitest';
import { gate, headline } from '../../harness/report/gate.ts';
import { renderHtmlReport } from '../../harness/report/html.ts';
import { renderSummaryMarkdown } from '../../harness/report/markdown.ts';
import type { RunReport } from '../../harness/report/model.ts';
import { summarize } from '../../harness/report/summary.ts';
import { plain, renderTerminalSummary } from '../../harness/report/terminal.ts';
import { HARNESS_VERSION } from '../../harness/version.ts';
import { agent, outcome } from './fixtures.ts';

function report(): RunReport {
  const alpha = agent('alpha', [
    outcome({ check: 'envelope.status', tool: 'tool_0', status: 'fail', message: 'flaky one', flaky: true }),
    outcome({ check: 'schema.adcp-response', tool: 'tool_0', status: 'untested', message: 'no schemas' }),
    outcome({ check: 'schema.adcp-response', tool: 'tool_1', status: 'untested', message: 'no schemas' }),
    outcome({ check: 'envelope.flat', tool: 'tool_0', status: 'pass' }),
    outcome({ check: 'storyboard.media_buy', tool: 'p/s › a', status: 'untested', message: 'sb', advisory: true }),
  ]);
  const down = agent('delta', [outcome({ check: 'envelope.flat', tool: '(no session)', status: 'untested', message: 'no session' })], {
    index: 1,
    reachable: false,
    down: { cause: 'connection-refused', detail: 'connection refused at 127.0.0.1:9', fix: 'is the server running?' },
  });
  return { strict: false, cutShort: null, agents: [alpha, down] } as RunReport;
}

describe('summarize', () => {
  test('counts each agent once, flaky apart, storyboards left out, and the open untested of reachable agents only', () => {
    const r = report();
    const s = summarize(r);
    const alpha = s.agents.get(r.agents[0]!)!;
    expect(alpha.counts).toMatchObject({ pass: 1, fail: 1, untested: 2 });
    expect(alpha.flaky).toBe(1);
    expect(s.openUnverified).toBe(2);
    expect(s.gate).toEqual(gate(r));
    expect(s.headline).toEqual(headline(r, HARNESS_VERSION));
    expect(s.harnessVersion).toBe(HARNESS_VERSION);
  });

  test('the three renderers print the summary’s numbers', () => {
    const r = report();
    const s = summarize(r);
    const leaving = `${s.openUnverified} leaving the verdict incomplete`;
    expect(renderTerminalSummary(r, plain)).toContain(leaving);
    expect(renderSummaryMarkdown(r)).toContain(leaving);
    const html = renderHtmlReport(r);
    expect(html).toContain(s.gate.text);
    expect(renderTerminalSummary(r, plain)).toContain(s.gate.text);
    expect(renderSummaryMarkdown(r)).toContain(s.gate.text);
  });
});
