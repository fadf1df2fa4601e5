// The parts of @adcp/sdk/signing the harness verifies webhooks with, loaded from their own modules. The
// package's `signing` entry also loads its whole client and server side (zod schemas, a CommonJS copy of the
// MCP SDK): ~0.7 s of CPU at every start of the harness, for what loads in ~30 ms from these files.
// @adcp/sdk is pinned exactly (package.json); test/webhooks/sdk-signing.test.ts holds each name to the
// entry's own export, so an SDK upgrade that moves one fails there, not in a run.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Signing from '@adcp/sdk/signing';

const require = createRequire(import.meta.url);
const SIGNING_DIR = path.join(path.dirname(require.resolve('@adcp/sdk/package.json')), 'dist', 'lib', 'signing');
const load = <T>(file: string): T => require(path.join(SIGNING_DIR, file)) as T;

export const { verifyWebhookSignature } = load<Pick<typeof Signing, 'verifyWebhookSignature'>>('webhook-verifier.js');
export const { InMemoryReplayStore } = load<Pick<typeof Signing, 'InMemoryReplayStore'>>('replay.js');
export const { InMemoryRevocationStore } = load<Pick<typeof Signing, 'InMemoryRevocationStore'>>('revocation.js');
export const { WebhookSignatureError } = load<Pick<typeof Signing, 'WebhookSignatureError'>>('errors.js');
