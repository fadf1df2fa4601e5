// Untested outcomes carry their failed precondition as data (`blockedBy`: the check their reason says to
// see, on the call it judged), so a baselined failure can cover what it left untested.
import { describe, expect, test } from 'vitest';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { capture, errorResult, noAnswer, result, success } from './build.ts';
import { unstructuredPreconditions } from './preconditions.helpers.ts';

describe('blockedBy', () => {
  const outcomes = judgeAgent(
    capture({
      exchanges: [
        result(success()),
        noAnswer('timeout'),
        result(errorResult({ code: `VALIDATION_ERROR_${'X'.repeat(48)}`, message: 'bad brief', recovery: 'correctable' }), {
          intent: 'invalid',
        }),
      ],
    }),
    {},
  );

  test('a call with no answer: every check it left untested is blocked by transport.call on that call', () => {
    const unanswered = outcomes.filter((o) => o.call === 1 && o.status === 'untested');
    expect(unanswered.length).toBeGreaterThan(10);
    for (const o of unanswered) expect(o.blockedBy, `${o.check}: ${o.message}`).toEqual({ check: 'transport.call', call: 1 });
    expect(outcomes.find((o) => o.check === 'transport.call' && o.call === 1)?.status).toBe('fail');
  });

  test('a defect another check owns: blocked by that check on the same call (a 65-character code → error.code)', () => {
    expect(outcomes.find((o) => o.check === 'error.code' && o.call === 2)?.status).toBe('fail');
    expect(outcomes.find((o) => o.check === 'error.vendor-code' && o.call === 2)).toMatchObject({
      status: 'untested',
      message: 'the code is not a 1–64 character string: see error.code',
      blockedBy: { check: 'error.code', call: 2 },
    });
  });

  test('what was verified, or untested for a reason no check owns, names no precondition', () => {
    expect(outcomes.filter((o) => o.status !== 'untested' && o.blockedBy !== undefined)).toEqual([]);
    expect(outcomes.filter((o) => o.call === 0 && o.blockedBy !== undefined)).toEqual([]);
  });

  test('every untested reason that says "see <check id>" carries that check as blockedBy', () => {
    expect(unstructuredPreconditions(outcomes)).toEqual([]);
    const failedInit = judgeAgent(
      capture({ initialize: { ok: false, failure: { kind: 'connect', message: 'ECONNREFUSED' } }, toolsList: undefined }),
      {},
    );
    expect(unstructuredPreconditions(failedInit)).toEqual([]);
    expect(failedInit.find((o) => o.check === 'transport.tools-list')?.blockedBy).toEqual({ check: 'transport.initialize' });
  });
});
