// The webhook signer of @adcp/sdk/signing, loaded from its client module: the package's `signing` entry also
// loads its server side (zod schemas, a CommonJS copy of the MCP SDK), ~0.7 s of CPU at every seller start
// (tests start hundreds of sellers), for what loads in ~35 ms from this file. @adcp/sdk is pinned exactly;
// test/webhooks/sdk-signing.test.ts holds each name to the entry's own export. Loaded at first use, not at
// start: the seller's startup snapshot (scripts/seller-snapshot.mjs) cannot hold a package loaded by path.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Signing from '@adcp/sdk/signing';

export type SdkSigning = Pick<typeof Signing, 'buildSignatureBase' | 'finalizeRequestSignature' | 'prepareWebhookSignature'>;

let loaded: SdkSigning | undefined;
/** The signer's functions, loaded at the first call. */
export function sdkSigning(): SdkSigning {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const client = path.join(path.dirname(require.resolve('@adcp/sdk/package.json')), 'dist', 'lib', 'signing', 'client.js');
  const { buildSignatureBase, finalizeRequestSignature, prepareWebhookSignature } = require(client) as SdkSigning;
  return (loaded = { buildSignatureBase, finalizeRequestSignature, prepareWebhookSignature });
}
