// The signing parts the harness and the reference seller load from @adcp/sdk's own modules (to skip the
// ~0.7 CPU-seconds its `signing` entry costs) are exactly what that entry exports: an SDK upgrade that moves
// one fails here.
import { expect, test } from 'vitest';
import * as entry from '@adcp/sdk/signing';
import * as harness from '../../harness/webhooks/sdk-signing.ts';
import { sdkSigning } from '../../sellers/reference/sdk-signing.ts';

test.each([
  ['harness', harness],
  ['reference seller (at its first signature)', sdkSigning()],
] as const)('the %s loads the entry’s own functions', (_who, loaded) => {
  const names = Object.keys(loaded);
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) {
    expect(typeof (loaded as Record<string, unknown>)[name], name).toBe('function');
    expect((loaded as Record<string, unknown>)[name], name).toBe((entry as Record<string, unknown>)[name]);
  }
});
