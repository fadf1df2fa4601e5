// The harness's webhook verifier against the official AdCP webhook-signing vectors shipped in @adcp/sdk:
// every positive vector verifies; every stateless negative is rejected with its exact error code. The
// replay vector (016) is run black-box (delivered twice). Where the 3.0.6 vectors disagree with the 3.1
// profile text (security.mdx step 8: a request-signing key is accepted for webhooks), the text wins.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  InMemoryReplayStore,
  InMemoryRevocationStore,
  StaticJwksResolver,
  verifyWebhookSignature,
  type AdcpJsonWebKey,
} from '@adcp/sdk/signing';
import { newReplayStore, verifyWebhookDelivery } from '../../harness/webhooks/verify.ts';

const DIR = join(import.meta.dirname, '../../node_modules/@adcp/sdk/compliance/cache/3.0.6/test-vectors/webhook-signing');

interface Vector {
  name: string;
  reference_now: number;
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  jwks_ref: string[];
  jwks_override?: Record<string, AdcpJsonWebKey>;
  expected_outcome: { success: boolean; error_code?: string };
  requires_contract?: string;
  black_box_behavior?: string;
}

const allKeys = (
  JSON.parse(readFileSync(join(DIR, 'keys.json'), 'utf8')) as { keys: Array<AdcpJsonWebKey & { _private_d_for_test_only?: string }> }
).keys.map(({ _private_d_for_test_only: _d, ...pub }) => pub as AdcpJsonWebKey);

function load(kind: 'positive' | 'negative'): Array<[string, Vector]> {
  return readdirSync(join(DIR, kind))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(join(DIR, kind, f), 'utf8')) as Vector]);
}

function keysFor(v: Vector): AdcpJsonWebKey[] {
  return allKeys.filter((k) => v.jwks_ref.includes(k.kid)).map((k) => v.jwks_override?.[k.kid] ?? k);
}

/** 3.0.6 negatives the 3.1 profile text turns positive (security.mdx, verifier checklist for webhooks, step 8). */
const TEXT_WINS = new Set(['008-wrong-adcp-use.json']);

describe('webhook verifier: official positive vectors', () => {
  it.each(load('positive'))('%s verifies', async (_f, v) => {
    const out = await verifyWebhookDelivery(v.request, keysFor(v), { now: v.reference_now });
    expect(out).toMatchObject({ ok: true });
  });
  it('why the wrapper: the pinned SDK alone refuses that key (webhook_mode_mismatch), against the 3.1 text', async () => {
    const v = load('negative').find(([f]) => TEXT_WINS.has(f))![1];
    const sdk = verifyWebhookSignature(v.request, {
      jwks: new StaticJwksResolver(keysFor(v)),
      replayStore: new InMemoryReplayStore(),
      revocationStore: new InMemoryRevocationStore(),
      now: () => v.reference_now,
    });
    await expect(sdk).rejects.toMatchObject({ code: 'webhook_mode_mismatch' });
  });
  it.each(load('negative').filter(([f]) => TEXT_WINS.has(f)))(
    '%s verifies: a request-signing key signs webhooks (3.1 text)',
    async (_f, v) => {
      expect(await verifyWebhookDelivery(v.request, keysFor(v), { now: v.reference_now })).toMatchObject({ ok: true });
    },
  );
});

describe('webhook verifier: official negative vectors', () => {
  const stateless = load('negative').filter(([f, v]) => v.requires_contract === undefined && !TEXT_WINS.has(f));
  it('covers every stateless negative but the one the text overrides', () => expect(stateless.length).toBeGreaterThanOrEqual(16));
  it.each(stateless)('%s is rejected with its code', async (_f, v) => {
    const out = await verifyWebhookDelivery(v.request, keysFor(v), { now: v.reference_now });
    expect(out).toMatchObject({ ok: false, code: v.expected_outcome.error_code });
  });
  it('016 replayed nonce, black-box: the first delivery verifies, the second is webhook_signature_replayed', async () => {
    const v = load('negative').find(([f]) => f.startsWith('016-'))![1];
    const replayStore = await newReplayStore();
    expect(await verifyWebhookDelivery(v.request, keysFor(v), { now: v.reference_now, replayStore })).toMatchObject({ ok: true });
    expect(await verifyWebhookDelivery(v.request, keysFor(v), { now: v.reference_now, replayStore })).toMatchObject({
      ok: false,
      code: 'webhook_signature_replayed',
    });
  });
  it('a key with any other purpose is webhook_signature_key_purpose_invalid', async () => {
    const v = load('positive')[0]![1];
    const keys = keysFor(v).map((k) => ({ ...k, adcp_use: 'response-signing' }));
    expect(await verifyWebhookDelivery(v.request, keys, { now: v.reference_now })).toMatchObject({
      ok: false,
      code: 'webhook_signature_key_purpose_invalid',
    });
  });
});
