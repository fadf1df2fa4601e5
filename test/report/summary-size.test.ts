// summary.md stays under 1 MiB (GitHub drops a larger step summary whole): the longest sections are
// trimmed and the top says so; a summary that fits is never touched.
import { describe, expect, test } from 'vitest';
import { renderSummaryMarkdown, SUMMARY_MAX_BYTES } from '../../harness/report/markdown.ts';
import type { AgentReport, RunReport } from '../../harness/report/model.ts';
import { agent, outcome, sampleReport } from './fixtures.ts';

/** 200 sellers, each failing 40 checks with long evidence: tens of MiB of Markdown untrimmed. */
function hugeReport(): RunReport {
  const evidence = { request: `get_products ${'{"brief":"x"}'.repeat(40)}`, answer: 'a'.repeat(900), diagnosis: 'd'.repeat(300) };
  const agents: AgentReport[] = Array.from({ length: 200 }, (_, i) =>
    agent(
      `seller-${i}`,
      Array.from({ length: 40 }, (_, j) =>
        outcome({
          check: `envelope.check-${j}`,
          tool: 'get_products',
          status: j % 10 === 0 ? 'warn' : 'fail',
          severity: j % 10 === 0 ? 'SHOULD' : 'MUST',
          message: `at /x/${j}: expected y; found z`,
          fix: 'f'.repeat(200),
          evidence,
        }),
      ),
      { index: i },
    ),
  );
  return { agents, strict: false, cutShort: null };
}

describe('summary.md size', () => {
  test('a huge run is trimmed under 1 MiB, longest sections first, and says so at the top', () => {
    const md = renderSummaryMarkdown(hugeReport());
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThan(1024 * 1024);
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThanOrEqual(SUMMARY_MAX_BYTES + 2048);
    const lines = md.split('\n');
    expect(lines[0]).toBe('# AdCP conformance');
    expect(lines[2]).toMatch(
      /^> \*\*This summary was trimmed to stay under 1 MiB\*\* \(GitHub drops larger step summaries\): Failures shows \d+ of 7200 rows/,
    );
    expect(lines[2]).toContain('report.json and report.html have everything');
    // Every agent still has its row; the failures section was cut and says how much is missing.
    expect(lines.filter((l) => l.startsWith('| seller-')).length).toBeGreaterThanOrEqual(200);
    expect(md).toMatch(/\n\*… \d+ more rows: see report\.json or report\.html\*\n/);
    expect(md).toContain('## Failures');
  });

  test('a summary that fits is not trimmed', () => {
    const md = renderSummaryMarkdown(sampleReport());
    expect(md).not.toContain('trimmed');
    expect(md).not.toContain('more rows');
  });

  test('the limit is honoured whatever it is', () => {
    const report = hugeReport();
    report.agents = report.agents.slice(0, 5);
    const md = renderSummaryMarkdown(report, 20_000);
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThan(22_000);
    expect(md.split('\n')[2]).toMatch(/trimmed/);
  });
});
