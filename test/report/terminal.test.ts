import { describe, expect, test } from 'vitest';
import { colours, paintFor, plain, renderTerminalSummary } from '../../harness/report/terminal.ts';
import { agent, sampleReport } from './fixtures.ts';

describe('renderTerminalSummary', () => {
  test('aligned table of agent × verdict / AdCP / counts', () => {
    const lines = renderTerminalSummary(sampleReport(), plain).split('\n');
    expect(lines).toContain('agent       verdict        AdCP  pass  fail  warn  untested  n/a  baselined');
    expect(lines).toContain('alpha       nonconformant  3.0      1     1     1         1    1          1');
    expect(lines).toContain('beta | <b>  conformant     3.0      1     0     0         0    0          0');
  });

  test('each failure shows check id, tool, pointer, expected vs found, what was sent and answered, the fix and the spec URL', () => {
    const text = renderTerminalSummary(sampleReport(), plain);
    expect(text).toContain(
      [
        '  ✗ alpha  envelope.status › get_products  [MUST]',
        '      at:       /structuredContent/status',
        '      expected: a task status',
        '      found:    "done"',
        '      sent:     get_products {"brief":"x"}',
        '      answered: structuredContent: {"status":"done"}',
        '      duration: 3 ms',
        '      fix:      send status: "completed"',
        '      spec:     AdCP · MCP response extraction — https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-response-extraction',
      ].join('\n'),
    );
    expect(text).toContain('Warnings, SHOULD (1; fail only under --strict)');
    expect(text).toContain('~ alpha  envelope.context-echo › get_products  baseline: known, ticket ADCP-12');
    expect(text.trimEnd().endsWith('✗ 2 agents nonconformant to AdCP 3.0 per adcp-conformance 0.1.0')).toBe(true);
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
