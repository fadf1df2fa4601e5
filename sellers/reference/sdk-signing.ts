// The webhook signer of @adcp/sdk/signing, loaded from its client module: the package's `signing` entry also
// loads its server side (zod schemas, a CommonJS copy of the MCP SDK), ~0.7 s of CPU at every seller start
// (tests start hundreds of sellers), for what loads in ~35 ms from this file. @adcp/sdk is pinned exactly;
// test/webhooks/sdk-signing.test.ts holds each name to the entry's own export.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Signing from '@adcp/sdk/signing';

const require = createRequire(import.meta.url);
const CLIENT = path.join(path.dirname(require.resolve('@adcp/sdk/package.json')), 'dist', 'lib', 'signing', 'client.js');

export const { buildSignatureBase, finalizeRequestSignature, prepareWebhookSignature } = require(CLIENT) as Pick<
  typeof Signing,
  'buildSignatureBase' | 'finalizeRequestSignature' | 'prepareWebhookSignature'
>;
