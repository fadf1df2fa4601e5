// Evidence per call over stdio: what the seller wrote on stderr while the call ran (a handler exception
// logged there), bounded and redacted, next to the call's duration.
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { STDERR_DURING_CHARS } from '../../harness/connect/stdio-transport.ts';
import { byTool, probes, stdioAgent } from './agents.ts';

const RPC_STDIO = fileURLToPath(new URL('../hostile/servers/rpc-stdio.mjs', import.meta.url));

test('each stdio exchange carries the stderr written during its call (redacted, bounded) and its duration', async () => {
  const token = 'stderr-token-9876543210';
  const capture = await captureAgent(
    stdioAgent('rpc', {
      command: process.execPath,
      args: [RPC_STDIO, 'stderr-log'],
      env: { SELLER_TOKEN: token },
      secrets: [token],
      probes: probes('throws', 'quiet', 'noisy', 'quiet'),
    }),
  );
  const call = (tool: string, nth = 0) => byTool(capture.exchanges, tool)[nth]!;
  const [throws, quiet, noisy, quietAgain] = [call('throws'), call('quiet'), call('noisy'), call('quiet', 1)];
  expect(throws.stderrDuring).toBe(
    "TypeError: Cannot read properties of undefined (reading 'map') token=[REDACTED]\n    at handler (/srv/seller/tools.js:42:17)\n",
  );
  expect(quiet.stderrDuring).toBeUndefined();
  // Cut at the bound, less the characters a secret crossing the cut could occupy, with an ellipsis.
  expect(noisy.stderrDuring).toHaveLength(STDERR_DURING_CHARS - (token.length - 1) + 1);
  expect(noisy.stderrDuring?.endsWith('n…')).toBe(true);
  expect(quietAgain.stderrDuring).toBeUndefined(); // the noisy call's output did not spill into the next one
  for (const x of capture.exchanges) expect(x.durationMs).toBeGreaterThanOrEqual(0);
  expect(JSON.stringify(capture)).not.toContain(token);
});
