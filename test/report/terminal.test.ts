import { describe, expect, test } from 'vitest';
import { colours, paintFor, plain, renderTerminalSummary } from '../../harness/report/terminal.ts';
import { agent, sampleReport } from './fixtures.ts';

describe('renderTerminalSummary', () => {
  test('aligned table of agent × pass / fail / warn / skip', () => {
    const lines = renderTerminalSummary(sampleReport(), plain).split('\n');
    expect(lines).toContain('agent       pass  fail  warn  skip  baselined');
    expect(lines).toContain('alpha          1     1     1     1          1');
    expect(lines).toContain('beta | <b>     1     0     0     0          0');
  });

  test('each failure shows check id, tool, pointer, expected vs found and the spec', () => {
    const text = renderTerminalSummary(sampleReport(), plain);
    expect(text).toContain(
      [
        '  ✗ alpha  envelope.status › get_products  [MUST]',
        '      at       /structuredContent/status',
        '      expected a task status',
        '      found    "done"',
        '      spec: AdCP · MCP response extraction §2',
      ].join('\n'),
    );
    expect(text).toContain('Warnings, SHOULD (1; fail only under --strict)');
    expect(text).toContain('~ alpha  envelope.context-echo › get_products  baseline: known, ticket ADCP-12');
    expect(text.trimEnd().endsWith('✗ conformance failures')).toBe(true);
  });

  test('under --strict, warnings are failures', () => {
    const text = renderTerminalSummary(sampleReport(true), plain);
    expect(text).toContain('Failures (2)');
    expect(text).not.toContain('Warnings');
  });

  test('plain output has no escape sequences; colour output has', () => {
    expect(renderTerminalSummary(sampleReport(), plain)).not.toContain('\u001b');
    expect(renderTerminalSummary(sampleReport(), colours)).toContain('\u001b[31m');
  });

  test('incomplete agents are flagged', () => {
    const text = renderTerminalSummary({ strict: false, cutShort: null, agents: [agent('down', [], { reachable: false })] }, plain);
    expect(text).toContain('incomplete: initialize did not answer');
    expect(text).toContain('⚠ incomplete');
  });
});

describe('paintFor', () => {
  test('colour only on a TTY, and never with NO_COLOR set', () => {
    expect(paintFor({ isTTY: true }, {})).toBe(colours);
    expect(paintFor({ isTTY: false }, {})).toBe(plain);
    expect(paintFor({ isTTY: true }, { NO_COLOR: '1' })).toBe(plain);
    expect(paintFor({ isTTY: true }, { NO_COLOR: '' })).toBe(colours);
  });
});
