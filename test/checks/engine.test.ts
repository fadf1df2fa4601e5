import { describe, expect, test } from 'vitest';
import { catalog } from '../../harness/checks/catalog.ts';
import { judgeAgent, layerCounts, sanitize } from '../../harness/checks/engine.ts';
import { capture, errorResult, goodError, noAnswer, payload, result, success } from './build.ts';

describe('judgeAgent', () => {
  test('a clean capture: no failure or warning, outcomes in catalog order then call order', () => {
    const a = capture({
      exchanges: [
        result(success({ status: 'completed', adcp: { major_versions: [3], supported_versions: ['3.0'] } }), {
          tool: 'get_adcp_capabilities',
        }),
        result(success()),
        result(errorResult({ code: 'VALIDATION_ERROR', message: 'brief must be a string', recovery: 'correctable' }), {
          intent: 'invalid',
        }),
      ],
    });
    const outcomes = judgeAgent(a, {});
    expect(outcomes.filter((o) => o.status === 'fail' || o.status === 'warn')).toEqual([]);
    const order = catalog.map((c) => c.id);
    const ranks = outcomes.map((o) => order.indexOf(o.check));
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    expect(outcomes.filter((o) => o.check === 'envelope.is-error-type').map((o) => o.tool)).toEqual([
      'get_adcp_capabilities',
      'get_products',
      'get_products (invalid input)',
    ]);
    expect(new Set(outcomes.map((o) => o.check))).toEqual(new Set(order)); // every check reports
  });

  test('fail → fail under MUST, warn under SHOULD; conditional levels (MUST*) resolved per call from the data', () => {
    const a = capture({
      exchanges: [
        result(success({ products: [] }), { protocolVersion: '2025-03-26' }),
        result({ content: [{ type: 'text', text: JSON.stringify(payload()) }] }, { protocolVersion: '2025-03-26' }),
      ],
    });
    const outcomes = judgeAgent(a, {}, (id) => id === 'envelope.status' || id === 'envelope.structured-content');
    const status = outcomes.find((o) => o.check === 'envelope.status' && o.status !== 'pass')!;
    expect(status).toMatchObject({ status: 'warn', severity: 'SHOULD' });
    expect(status.message).toMatch(/^at \/result\/structuredContent\/status: expected .*; found absent$/);
    expect(outcomes.find((o) => o.check === 'envelope.structured-content' && o.status !== 'pass')).toMatchObject({
      status: 'warn',
      severity: 'SHOULD',
    });
  });

  test('a call with no answer: transport.call fails, other exchange checks are untested (envelope.size judges oversize)', () => {
    const outcomes = judgeAgent(capture({ exchanges: [noAnswer('oversize')] }), {});
    const byId = Object.fromEntries(outcomes.filter((o) => o.tool === 'get_products').map((o) => [o.check, o.status]));
    expect(byId['transport.call']).toBe('fail');
    expect(byId['envelope.size']).toBe('fail');
    const others = Object.entries(byId).filter(([id]) => id !== 'transport.call' && id !== 'envelope.size');
    expect(others.every(([, s]) => s === 'untested')).toBe(true);
    expect(outcomes.find((o) => o.check === 'envelope.flat')!.message).toBe('no answer: see transport.call');
  });

  test('an aborted session is a transport.call failure; no calls at all is untested with the reason', () => {
    const aborted = judgeAgent(capture({ aborted: { kind: 'timeout', message: 'agent timeout' } }), {}, (id) => id === 'transport.call');
    expect(aborted.map((o) => [o.tool, o.status])).toEqual([
      ['(no calls)', 'untested'],
      ['session', 'fail'],
    ]);
    const failedInit = judgeAgent(
      capture({ initialize: { ok: false, failure: { kind: 'connect', message: 'ECONNREFUSED' } }, toolsList: undefined }),
      {},
      (id) => id === 'envelope.flat',
    );
    expect(failedInit[0]).toMatchObject({ status: 'untested', message: expect.stringContaining('transport.initialize') });
  });

  test('select narrows the run', () => {
    const outcomes = judgeAgent(capture({ exchanges: [result(success())] }), {}, (id) => id.startsWith('error.'));
    expect(new Set(outcomes.map((o) => o.check.split('.')[0]))).toEqual(new Set(['error']));
  });

  test("hostile records never crash the run; a throwing check is untested with the error, never a pass or the seller's failure", () => {
    const weird = [
      result(null),
      result([1, 2]),
      result({ content: 'nope', structuredContent: 'x', isError: 1 }),
      result(JSON.parse('{"__proto__":{"isError":true},"content":[{"type":"text","text":"{\\"__proto__\\":1}"}]}')),
      { ...result(success()), outcome: undefined } as never,
      { ...result(success()), request: undefined } as never,
    ];
    const outcomes = judgeAgent(capture({ exchanges: weird, toolsList: { ok: true, pages: 1, tools: [null, 7, { name: {} }] } }), {});
    expect(outcomes.length).toBeGreaterThan(catalog.length);
    expect(({} as Record<string, unknown>).isError).toBeUndefined();
    const crashes = outcomes.filter((o) => o.message.includes('harness error'));
    expect(crashes.every((o) => o.status === 'untested')).toBe(true);

    // A record whose getter throws makes every check that reads it throw: each is untested with the error.
    const explosive = result(success());
    Object.defineProperty(explosive, 'tool', {
      get: () => {
        throw new Error('getter boom');
      },
    });
    const guarded = judgeAgent(capture({ exchanges: [explosive] }), {}, (id) => id === 'envelope.status');
    expect(guarded[0]).toMatchObject({ status: 'untested', message: expect.stringContaining('getter boom') });
  });

  test('messages escape control characters and truncate seller text', () => {
    const nasty = `a\u0000b\u001b[31m${'x'.repeat(1000)}`;
    const outcomes = judgeAgent(
      capture({ exchanges: [result(errorResult({ ...goodError, recovery: nasty }))] }),
      {},
      (id) => id === 'error.recovery',
    );
    const msg = outcomes[0]!.message;
    // eslint-disable-next-line no-control-regex -- asserting no control character survives
    expect(msg).not.toMatch(/[\u0000-\u001f]/);
    expect(msg).toContain('\\u0000');
    expect(outcomes[0]!.found!.length).toBeLessThanOrEqual(201);
    expect(sanitize('line\nbreak\u202e')).toBe('line\\nbreak\\u202e');
  });
});

describe('layerCounts', () => {
  test('one count per non-error result, by seed 004 branch', () => {
    const meta = { advertised: { outputSchema: { type: 'object', $ref: '#/$defs/P', $defs: { P: { type: 'object' } } } } };
    const a = capture({
      exchanges: [
        result(success()), // validate_root (not a meta-id tool)
        result(success({ result: payload() }), meta), // legacy_wrapper
        result(success(), meta), // validate_root
        result({ content: [{ type: 'text', text: '{}' }] }), // missing
        result(success(), { protocolVersion: '2025-06-18' }), // schema (protocol outside the audited set)
        result(errorResult(goodError)), // not counted
        noAnswer(), // not counted
      ],
    });
    expect(layerCounts(a)).toEqual({ schema: 1, missing: 1, legacy_wrapper: 1, validate_root: 2 });
  });
});

test('layerCounts skips malformed records', () => {
  const a = capture({ exchanges: [null as never, { ...result(success()), outcome: undefined } as never, result(success())] });
  expect(layerCounts(a)).toEqual({ schema: 0, missing: 0, legacy_wrapper: 0, validate_root: 1 });
});
