// The waiting line under a short timeout: the first notice comes at 5 s, or at half a budget of 5 s or
// less (whole seconds, at least 1 s), so `--timeout 4` still says what it waits on before the timeout.
import { describe, expect, test } from 'vitest';
import { firstWaitingMs, WAITING_FIRST_MS } from '../../harness/capture/capture-agent.ts';
import { SELLER_ENTRY } from '../../sellers/launch.ts';
import { runCli } from './cli.helpers.ts';

const hangingSeller = `'${process.execPath}' '${SELLER_ENTRY}' --transport stdio --fault hang-on-call`;

describe('the first waiting notice', () => {
  test('5 s for a budget over 5 s; half a shorter one in whole seconds, at least 1 s', () => {
    expect([30_000, 6_000, 5_001].map(firstWaitingMs)).toEqual([WAITING_FIRST_MS, WAITING_FIRST_MS, WAITING_FIRST_MS]);
    expect([5_000, 4_000, 3_000, 2_000, 1_500].map(firstWaitingMs)).toEqual([2_000, 2_000, 1_000, 1_000, 1_000]);
  });

  test('probe --stdio --timeout 4: one waiting line at 2 s of 4 s, then the timeout (exit 1)', async () => {
    const r = await runCli(['probe', 'get_signals', '--stdio', hangingSeller, '--timeout', '4']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('waiting on node reference-seller.js: tools/call get_signals (2 s of 4 s)\n');
    expect(r.stderr.match(/waiting on/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/no answer within 4000 ms/);
  }, 120_000);
});
