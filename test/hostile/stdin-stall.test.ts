// A stdio seller that stops reading its stdin while making us write (pings with 512 KiB ids, each of
// whose answers echoes the id): what waits in its stdin is bounded; past the bound the call fails, saying
// why, and the seller's process group is killed.
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { probes, stdioAgent } from '../connect/agents.ts';

const RPC_STDIO = fileURLToPath(new URL('./servers/rpc-stdio.mjs', import.meta.url));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a seller that stops reading stdin: the call fails at the pending-bytes bound, the seller is killed, later probes are not run', async () => {
  const timeouts = { connectMs: 5_000, callMs: 30_000, agentMs: 60_000 };
  const capture = await captureAgent(
    stdioAgent('rpc', {
      command: process.execPath,
      args: [RPC_STDIO, 'stdin-stall'],
      timeouts,
      probes: probes('get_adcp_capabilities', 'get_adcp_capabilities'),
    }),
  );
  expect(capture.exchanges).toHaveLength(1);
  const x = capture.exchanges[0]!;
  expect(x.outcome).toMatchObject({
    kind: 'transport-error',
    failure: { kind: 'closed', message: expect.stringContaining('the seller stopped reading its stdin') },
  });
  expect(x.durationMs).toBeLessThan(timeouts.callMs); // the bound, not the call timeout, ended it
  expect(capture.stdio?.killedBecause).toMatch(/stopped reading its stdin/);
  expect(capture.aborted).toMatchObject({ kind: 'closed', message: expect.stringContaining('the harness killed the server') });
  const pid = Number(/stalling pid (\d+)/.exec(capture.stdio?.stderrTail ?? '')?.[1]);
  expect(pid).toBeGreaterThan(0);
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  expect(alive(pid)).toBe(false);
});
