// The waiting line under a short timeout: the first notice comes at 5 s, or at half a budget of 5 s or
// less (whole seconds, at least 1 s), so `--timeout 4` still says what it waits on before the timeout
// (the CLI case: test/dev-loop/timeouts-env.test.ts).
import { describe, expect, test } from 'vitest';
import { firstWaitingMs, WAITING_FIRST_MS } from '../../harness/capture/capture-agent.ts';

describe('the first waiting notice', () => {
  test('5 s for a budget over 5 s; half a shorter one in whole seconds, at least 1 s', () => {
    expect([30_000, 6_000, 5_001].map(firstWaitingMs)).toEqual([WAITING_FIRST_MS, WAITING_FIRST_MS, WAITING_FIRST_MS]);
    expect([5_000, 4_000, 3_000, 2_000, 1_500].map(firstWaitingMs)).toEqual([2_000, 2_000, 1_000, 1_000, 1_000]);
  });
});
