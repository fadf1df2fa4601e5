// The webhook.* checks (harness/checks/webhook/*.ts) against
// their vectors (vectors/checks/webhook.json), run through the engine as the vectors command runs
// them; and verifyCapturedWebhooks recording a real signed delivery's verification for webhook.signature.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentCapture, WebhookDelivery } from '../../harness/record/exchange.ts';
import type { Check, Status } from '../../harness/checks/check.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { fillCapture } from '../../harness/checks/vector-cases.ts';
import { verifyCapturedWebhooks } from '../../harness/webhooks/verify.ts';
import { signedHeaders, webhookJwks } from '../../sellers/reference/webhooks.ts';
import noInline from '../../harness/checks/webhook/no-inline-duplicate.ts';
import delivery from '../../harness/checks/webhook/delivery.ts';
import retry from '../../harness/checks/webhook/retry-idempotency.ts';
import signature from '../../harness/checks/webhook/signature.ts';

const CHECKS: readonly Check[] = [noInline, delivery, retry, signature];
const RANK: Record<Status, number> = { 'not-applicable': 0, pass: 1, untested: 2, warn: 3, fail: 4 };

interface Vector {
  id: string;
  capture: unknown;
  expected_outcomes: Record<string, Status>;
}
const doc = JSON.parse(readFileSync(join(import.meta.dirname, '../../vectors/checks/webhook.json'), 'utf8')) as {
  vectors: Vector[];
};

function folded(capture: AgentCapture): Record<string, Status> {
  const out: Record<string, Status> = {};
  for (const o of judgeAgent(capture, {}, undefined, CHECKS))
    out[o.check] = out[o.check] && RANK[out[o.check]!] >= RANK[o.status] ? out[o.check]! : o.status;
  return out;
}

describe('webhook.* vectors', () => {
  it('the ids are the four of the task lifecycle', () =>
    expect(CHECKS.map((c) => c.id)).toEqual([
      'webhook.no-inline-duplicate',
      'webhook.delivery',
      'webhook.retry-idempotency',
      'webhook.signature',
    ]));
  it.each(doc.vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    expect(folded(fillCapture(v.capture, undefined))).toEqual(v.expected_outcomes);
  });
  it('every check fails in some vector and passes in another', () => {
    for (const c of CHECKS) {
      const statuses = doc.vectors.map((v) => v.expected_outcomes[c.id]);
      expect(statuses, c.id).toContain('fail');
      expect(statuses, c.id).toContain('pass');
    }
  });
});

describe('verifyCapturedWebhooks', () => {
  function captured(headers: Record<string, string>, body: string): AgentCapture {
    const d: WebhookDelivery = {
      at: 1,
      method: 'POST',
      target: '/wh/1?x=1',
      call: 1,
      headers: Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]),
      body,
      bodyEncoding: 'utf8',
      bodyBytes: Buffer.byteLength(body),
      answered: 200,
    };
    return {
      agent: {
        name: 'a',
        transport: 'stdio',
        production: false,
        sandbox: true,
        webhookKeys: { ...webhookJwks(), source: 'inline' } as never,
      },
      initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: {}, durationMs: 0 },
      exchanges: [],
      webhooks: { base: 'http://127.0.0.1:4000/wh', kind: 'loopback', deliveries: [d], omitted: 0, waitedMs: 0 },
    };
  }
  const body = '{"status":"completed"}';

  it('records ok for a delivery signed for the URL the receiver was reached at', async () => {
    const c = captured(signedHeaders('http://127.0.0.1:4000/wh/1?x=1', body), body);
    await verifyCapturedWebhooks(c);
    expect(c.webhooks!.deliveries[0]!.verification).toEqual({ ok: true, keyid: 'reference-seller-webhook-2026' });
  });
  it('records the profile code for an altered body, a replayed nonce, an unsigned delivery; nothing without keys', async () => {
    const altered = captured(signedHeaders('http://127.0.0.1:4000/wh/1?x=1', body), '{"status":"failed"}');
    await verifyCapturedWebhooks(altered);
    expect(altered.webhooks!.deliveries[0]!.verification).toMatchObject({ ok: false, code: 'webhook_signature_digest_mismatch' });

    const twice = captured(signedHeaders('http://127.0.0.1:4000/wh/1?x=1', body), body);
    twice.webhooks!.deliveries.push({ ...twice.webhooks!.deliveries[0]! });
    await verifyCapturedWebhooks(twice);
    expect(twice.webhooks!.deliveries.map((d) => d.verification?.ok)).toEqual([true, false]);
    expect(twice.webhooks!.deliveries[1]!.verification).toMatchObject({ code: 'webhook_signature_replayed' });

    const unsigned = captured({ 'Content-Type': 'application/json' }, body);
    await verifyCapturedWebhooks(unsigned);
    expect(unsigned.webhooks!.deliveries[0]!.verification).toMatchObject({ ok: false });

    const noKeys = captured(signedHeaders('http://127.0.0.1:4000/wh/1?x=1', body), body);
    delete noKeys.agent.webhookKeys;
    await verifyCapturedWebhooks(noKeys);
    expect(noKeys.webhooks!.deliveries[0]!).not.toHaveProperty('verification');
  });
});
