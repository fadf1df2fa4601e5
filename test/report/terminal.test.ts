import { describe, expect, test } from 'vitest';
import { colours, paintFor, plain, renderTerminalSummary } from '../../harness/report/terminal.ts';
import { agent, outcome, sampleReport } from './fixtures.ts';

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
    expect(text).toContain('Warnings, SHOULD (1 outcome, 1 finding; fail only under --strict)');
    expect(text).toContain('~ alpha  envelope.context-echo › get_products  baseline: known, ticket ADCP-12');
    // The headline counts verdicts; the last line is the gate that decided the exit code.
    expect(text.trimEnd().split('\n').slice(-2)).toEqual([
      '✗ 2 agents: 1 nonconformant · 1 conformant — nonconformant to AdCP 3.0 per adcp-conformance 0.1.0 (1 baselined failure not counted)',
      'gate: FAIL — 1 nonconformant (exit 1)',
    ]);
  });

  test('under --strict, warnings fail the run and keep their own section, which says so', () => {
    const text = renderTerminalSummary(sampleReport(true), plain);
    expect(text).toContain('Failures (1 outcome, 1 finding)');
    expect(text).toContain('Warnings, SHOULD (1 outcome, 1 finding; failing the run: --strict)');
    expect(text).toContain('  ! alpha  error.recovery › get_products  [SHOULD]');
  });

  test('plain output has no escape sequences; colour output has', () => {
    expect(renderTerminalSummary(sampleReport(), plain)).not.toContain('\u001b');
    expect(renderTerminalSummary(sampleReport(), colours)).toContain('\u001b[31m');
  });

  test('an unreachable agent without a known cause: incomplete, counted as unreachable in the headline and the gate', () => {
    const text = renderTerminalSummary({ strict: false, cutShort: null, agents: [agent('down', [], { reachable: false })] }, plain);
    expect(text).toMatch(/^down {3}incomplete /m);
    expect(text).toContain('incomplete: initialize did not answer');
    expect(text).toContain('⚠ unreachable — incomplete: conformance to AdCP 3.0 not established');
    expect(text.trimEnd().endsWith('gate: FAIL — 1 unreachable (exit 3)')).toBe(true);
  });

  test('why a seller is down: the cause in the table and the headline, the detail and the fix under its row', () => {
    const down = agent('shop', [], {
      reachable: false,
      down: { cause: 'connection-refused', detail: 'connection refused at 127.0.0.1:9', fix: 'is the server running on that port?' },
    });
    const failing = agent('other', [outcome({ check: 'envelope.status', tool: 't', status: 'fail', message: 'bad' })], { index: 1 });
    const text = renderTerminalSummary({ strict: false, cutShort: null, agents: [down, failing] }, plain);
    expect(text).toMatch(/^shop {3}down: connection refused {2}3\.0 /m);
    expect(text).toContain('\n  down: connection refused at 127.0.0.1:9\n  fix:  is the server running on that port?\n');
    expect(text).not.toContain('incomplete: initialize did not answer');
    expect(text.trimEnd().split('\n').slice(-2)).toEqual([
      '⚠ 2 agents: 1 nonconformant · 1 unreachable (connection refused) — incomplete: conformance to AdCP 3.0 not established per adcp-conformance 0.1.0',
      'gate: FAIL — 1 nonconformant, 1 unreachable (exit 3)',
    ]);
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
