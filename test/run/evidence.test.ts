// Evidence and diagnosis: pure functions over captured exchanges (no network).
import { describe, expect, test } from 'vitest';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import { attachEvidence, callEvidence, diagnose } from '../../harness/run/judge/evidence.ts';
import type { ReportOutcome } from '../../harness/report/model.ts';

function exchange(result: unknown, extra: Partial<Exchange> = {}): Exchange {
  return {
    agent: 'a',
    tool: 'get_products',
    intent: 'valid',
    request: { name: 'get_products', arguments: { brief: 'shoes', context: { trace: 'T1' }, token: 'sekrit-123' } },
    outcome: { kind: 'result', result },
    startedAt: '2026-12-01T00:00:00.000Z',
    durationMs: 42.4,
    ...extra,
  };
}

const capture = (exchanges: Exchange[]): AgentCapture => ({
  agent: { name: 'a', transport: 'stdio', production: false, sandbox: false },
  initialize: { ok: true, protocolVersion: '2025-06-18', serverInfo: { name: 's', version: '1' }, durationMs: 1 },
  exchanges,
});

const outcome = (check: string, status: ReportOutcome['status'], call: number): ReportOutcome => ({
  check,
  tool: 'get_products',
  status,
  severity: 'MUST',
  message: 'm',
  spec: 's',
  specUrl: 'https://example.test',
  call,
});

describe('diagnose', () => {
  test('a handler exception forwarded by the MCP SDK (message only, no error name)', () => {
    expect(diagnose(["Cannot read properties of undefined (reading 'map')"])).toMatch(
      /^Your tool threw `Cannot read properties of undefined \(reading 'map'\)`/,
    );
  });
  test('an exception with its name and a stack frame', () => {
    expect(diagnose(['TypeError: x.y is not a function\n    at handler (/srv/app/tools.js:12:7)'])).toContain(
      '`TypeError: x.y is not a function`',
    );
  });
  test("the SDK's own output-schema rejection", () => {
    const text =
      'MCP error -32602: Output validation error: Invalid structured content for tool get_products: Invalid input: expected string, received object at products[0]';
    expect(diagnose([text])).toMatch(/your outputSchema rejects your own answer/);
  });
  test("the SDK's input-schema rejection", () => {
    expect(diagnose(['MCP error -32602: Input validation error: Invalid arguments for tool get_products: …'])).toMatch(
      /inputSchema before your handler ran/,
    );
  });
  test('a zod validation text', () => {
    expect(diagnose(['[{"code":"invalid_type","expected":"string","path":["x"]}]'])).toMatch(/zod validation error/);
  });
  test('an ordinary AdCP error gets no diagnosis', () => {
    expect(diagnose(['{"adcp_error":{"code":"VALIDATION_ERROR","message":"buying_mode must be brief"}}'])).toBeUndefined();
  });
});

describe('evidence', () => {
  test('the request is shown with secrets redacted, the answer is the seller text', () => {
    const x = exchange({ isError: true, content: [{ type: 'text', text: "Cannot read properties of undefined (reading 'map')" }] });
    const ev = callEvidence(x, capture([x]), ['sekrit-123']);
    expect(ev.request).toContain('get_products {"brief":"shoes"');
    expect(ev.request).not.toContain('sekrit-123');
    expect(ev.answer).toContain("Cannot read properties of undefined (reading 'map')");
    expect(ev.diagnosis).toMatch(/^Your tool threw/);
  });

  test('one root cause reported once: later findings on the same call point to the first', () => {
    const x = exchange({ isError: true, content: [{ type: 'text', text: 'TypeError: boom\n    at f (/srv/a.js:1:1)' }] });
    const outcomes = [
      outcome('error.adcp-error', 'fail', 0),
      outcome('error.no-internals', 'warn', 0),
      outcome('envelope.context-echo', 'pass', 0),
    ];
    attachEvidence(outcomes, capture([x]), []);
    expect(outcomes[0]?.evidence?.diagnosis).toMatch(/TypeError: boom/);
    expect(outcomes[1]?.evidence).toMatchObject({ sameCauseAs: 'error.adcp-error › get_products' });
    expect(outcomes[1]?.evidence?.diagnosis).toBeUndefined();
    expect(outcomes[2]?.evidence).toBeUndefined();
    expect(outcomes.map((o) => o.durationMs)).toEqual([42, 42, 42]);
  });

  test('a call with no answer shows the stdio stderr tail', () => {
    const x = exchange(undefined, {
      outcome: { kind: 'transport-error', failure: { kind: 'closed', message: 'the process exited (code 1)' } },
    });
    const c = { ...capture([x]), stdio: { stdoutJunk: [], stderrTail: 'FATAL: SELLER_API_KEY is not set\n' } };
    const ev = callEvidence(x, c, []);
    expect(ev.answer).toContain('no answer: closed: the process exited (code 1)');
    expect(ev.stderr).toBe('FATAL: SELLER_API_KEY is not set');
  });
});
