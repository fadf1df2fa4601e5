// Verifies one webhook delivery under the AdCP RFC 9421 webhook profile (security.mdx, "Webhook callbacks"
// and its verifier checklist). The RFC 9421 parts are @adcp/sdk's verifyWebhookSignature: maintained by the
// AdCP authors, pinned in package.json, and written to the profile (tag, covered components, windows,
// key purpose, replay) — a hand-rolled parser would be one more implementation to get wrong.
// Where the pinned SDK lags the 3.1 profile text, the text wins (here, before the SDK sees the key):
//   step 8 — a webhook is signed with the agent's request-signing key: `adcp_use` "request-signing" is
//   accepted, as is the deprecated "webhook-signing"; any other purpose is webhook_signature_key_purpose_invalid
//   (the SDK accepts only "webhook-signing" and calls other purposes webhook_mode_mismatch).
import type { AdcpJsonWebKey, JwksResolver, ReplayStore } from '@adcp/sdk/signing';
// The SDK's verifier loads on the first delivery to verify, not with every run (~25 ms of CPU).
const signing = (): Promise<typeof import('./sdk-signing.ts')> => import('./sdk-signing.ts');
import type { AgentCapture } from '../record/exchange.ts';
import { discoverWebhookKeys, type DiscoveryOptions } from './key-discovery.ts';

/** The request as the receiver saw it: the URL the seller posted to, headers, the body bytes as text. */
export interface WebhookRequest {
  method: string;
  url: string;
  headers: ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string>>;
  body: string;
}

export type WebhookVerification =
  | { ok: true; keyid: string }
  /** `code`: the profile's `webhook_signature_*` code (or `webhook_target_uri_malformed`); `step`: the checklist step. */
  | { ok: false; code: string; step?: number; message: string };

export interface VerifyOptions {
  /** Seconds since the epoch (default: now). */
  now?: number;
  /** Shared across the deliveries of one run so a reused nonce is caught (step 12). */
  replayStore?: ReplayStore;
}

const ACCEPTED_PURPOSES = new Set(['request-signing', 'webhook-signing']);

/** Step 8 per the profile text; a key that passes is shown to the SDK under the purpose it checks for. */
function asSdkKey(jwk: AdcpJsonWebKey): AdcpJsonWebKey {
  const purposeOk =
    typeof jwk.adcp_use === 'string' && ACCEPTED_PURPOSES.has(jwk.adcp_use) && Array.isArray(jwk.key_ops) && jwk.key_ops.includes('verify');
  if (purposeOk) return { ...jwk, adcp_use: 'webhook-signing' };
  // Any other outcome: drop the purpose so the SDK rejects at step 8 with key_purpose_invalid.
  const { adcp_use: _dropped, ...rest } = jwk;
  return rest as AdcpJsonWebKey;
}

function keyResolver(keys: readonly AdcpJsonWebKey[]): JwksResolver {
  const byKid = new Map(keys.map((k) => [k.kid, k]));
  return {
    resolve: (kid) => {
      const jwk = byKid.get(kid);
      return Promise.resolve(jwk ? asSdkKey(jwk) : null);
    },
  };
}

function headerRecord(headers: WebhookRequest['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const entries: ReadonlyArray<readonly [string, string]> = Array.isArray(headers)
    ? (headers as ReadonlyArray<readonly [string, string]>)
    : Object.entries(headers as Record<string, string>);
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    const prior = out[key];
    out[key] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
  }
  return out;
}

/** A fresh replay store for one run's deliveries. */
export async function newReplayStore(): Promise<ReplayStore> {
  const { InMemoryReplayStore } = await signing();
  return new InMemoryReplayStore();
}

/** Verifies a delivery's signature against `keys` (the seller's JWKS keys). Never throws for a bad signature. */
export async function verifyWebhookDelivery(
  request: WebhookRequest,
  keys: readonly AdcpJsonWebKey[],
  options: VerifyOptions = {},
): Promise<WebhookVerification> {
  const { InMemoryReplayStore, InMemoryRevocationStore, verifyWebhookSignature, WebhookSignatureError } = await signing();
  // No revocation list is fetched for a seller's keys: the harness judges signatures, not key lifecycles.
  const revocationStore = new InMemoryRevocationStore();
  try {
    const result = await verifyWebhookSignature(
      { method: request.method, url: request.url, headers: headerRecord(request.headers), body: request.body },
      {
        jwks: keyResolver(keys),
        replayStore: options.replayStore ?? new InMemoryReplayStore(),
        revocationStore,
        ...(options.now !== undefined ? { now: () => options.now! } : {}),
      },
    );
    return { ok: true, keyid: result.keyid };
  } catch (err) {
    if (err instanceof WebhookSignatureError) return { ok: false, code: err.code, step: err.failedStep, message: err.message };
    return { ok: false, code: 'webhook_signature_invalid', message: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Verifies every delivery a capture's receiver kept, in arrival order under one replay store (a nonce
 * reused across deliveries is webhook_signature_replayed), and records each outcome on its delivery. The
 * keys: the agent's configured `webhookKeys`; else, once a delivery came to a URL the harness handed out,
 * the keys the seller publishes (key-discovery.ts). Where they came from, or why there are none, is kept
 * as capture.webhooks.keys. Run after the receiver closed, before the checks judge (they are synchronous).
 * Without keys it leaves the deliveries unverified (webhook.signature says untested).
 */
export async function verifyCapturedWebhooks(
  capture: AgentCapture,
  options: Pick<VerifyOptions, 'now'> & DiscoveryOptions = {},
): Promise<void> {
  const webhooks = capture.webhooks;
  if (!webhooks) return;
  const { now, ...discovery } = options;
  let keys = capture.agent.webhookKeys?.keys as AdcpJsonWebKey[] | undefined;
  if (capture.agent.webhookKeys) webhooks.keys = { source: capture.agent.webhookKeys.source };
  else if (webhooks.deliveries.some((d) => d.call !== undefined)) {
    const found = await discoverWebhookKeys(capture, discovery);
    webhooks.keys = 'problem' in found ? { problem: found.problem } : { source: found.source };
    if ('keys' in found) keys = found.keys;
  }
  if (!keys) return;
  const replayStore = await newReplayStore();
  for (const d of webhooks.deliveries) {
    let url: string;
    try {
      // The URL the seller posted to: the receiver's origin (or the public base's) with the target as received.
      url = new URL(d.target, webhooks.base).href;
    } catch {
      d.verification = {
        ok: false,
        code: 'webhook_target_uri_malformed',
        message: `the target ${JSON.stringify(d.target)} is not a URL path`,
      };
      continue;
    }
    const body = d.bodyEncoding === 'base64' ? Buffer.from(d.body, 'base64').toString('latin1') : d.body;
    d.verification = await verifyWebhookDelivery({ method: d.method, url, headers: d.headers, body }, keys, {
      ...(now !== undefined ? { now } : {}),
      replayStore,
    });
  }
}
