// The reference seller's webhook delivery over real loopback HTTP: signed deliveries verify with the
// seller's published JWKS (the harness's verifier), a 5xx is retried under the same event idempotency_key,
// the payload echoes operation_id and context; each fault bug breaks exactly what it says.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { newReplayStore, verifyWebhookDelivery } from '../../harness/webhooks/verify.ts';
import { pushConfigOf, signedHeaders, webhookJwks, WebhookSender, type WebhookBugs } from '../../sellers/reference/webhooks.ts';

interface Seen {
  url: string;
  headers: Array<[string, string]>;
  body: string;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** A receiver on 127.0.0.1 answering `answers` in turn (then 200), recording every request. */
async function receiver(answers: number[]): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Array<[string, string]> = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      seen.push({ url: `http://${req.headers.host}${req.url}`, headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const FAST = { attempts: 4, firstDelayMs: 10, attemptTimeoutMs: 2_000 };
const EVENT = {
  task_id: 'task_1',
  task_type: 'create_media_buy',
  status: 'completed',
  context: { trace: 'abc' },
  result: { media_buy_id: 'mb_1' },
};

async function deliverOnce(bugs: WebhookBugs, answers: number[] = []) {
  const { base, seen } = await receiver(answers);
  const push = pushConfigOf({ push_notification_config: { url: `${base}/hook/op_1?x=1`, operation_id: 'op_1' } })!;
  const outcome = await new WebhookSender(bugs, FAST).deliver(push, EVENT);
  const replayStore = await newReplayStore();
  const verified = [];
  for (const s of seen) verified.push(await verifyWebhookDelivery({ method: 'POST', ...s }, webhookJwks().keys, { replayStore }));
  return { seen, outcome, verified, bodies: seen.map((s) => JSON.parse(s.body) as Record<string, unknown>) };
}

describe('reference seller webhook delivery', () => {
  it('signs each attempt, retries a 503 with the same idempotency_key, echoes operation_id and context', async () => {
    const { seen, outcome, verified, bodies } = await deliverOnce({}, [503]);
    expect(outcome).toMatchObject({ delivered: true, statuses: [503, 200] });
    expect(seen).toHaveLength(2);
    expect(verified).toEqual([
      { ok: true, keyid: 'reference-seller-webhook-2026' },
      { ok: true, keyid: 'reference-seller-webhook-2026' },
    ]);
    expect(bodies[0]!['idempotency_key']).toBe(bodies[1]!['idempotency_key']);
    expect(String(bodies[0]!['idempotency_key'])).toMatch(/^[A-Za-z0-9_.:-]{16,255}$/);
    expect(bodies[0]).toMatchObject({
      operation_id: 'op_1',
      task_id: 'task_1',
      task_type: 'create_media_buy',
      status: 'completed',
      context: { trace: 'abc' },
    });
    // The profile's encoding: base64url, no padding (security.mdx, binary value encoding).
    const digest = seen[0]!.headers.find(([n]) => n.toLowerCase() === 'content-digest')![1];
    expect(digest).toMatch(/^sha-256=:[A-Za-z0-9_-]+:$/);
  });

  it('gives up after the bounded attempts on a receiver that keeps failing; stops at a 4xx', async () => {
    expect((await deliverOnce({}, [500, 502, 503, 504, 503])).outcome).toMatchObject({ delivered: false, statuses: [500, 502, 503, 504] });
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    expect((await deliverOnce({}, [410])).outcome).toMatchObject({ delivered: false, statuses: [410] });
  });

  it('a signature verifies only for the URL it was made for', async () => {
    const body = '{"a":1}';
    const headers = Object.entries(signedHeaders('http://127.0.0.1:9/hook', body));
    const other = await verifyWebhookDelivery({ method: 'POST', url: 'http://127.0.0.1:9/other', headers, body }, webhookJwks().keys);
    expect(other).toMatchObject({ ok: false, code: 'webhook_signature_invalid' });
  });

  it('bugs: unsigned, tampered, operation_id or context dropped, a new key per attempt', async () => {
    expect((await deliverOnce({ unsigned: true })).verified[0]).toMatchObject({ ok: false });
    server!.close();
    expect((await deliverOnce({ tamperAfterSigning: true })).verified[0]).toMatchObject({
      ok: false,
      code: 'webhook_signature_digest_mismatch',
    });
    server!.close();
    expect((await deliverOnce({ dropOperationId: true })).bodies[0]).not.toHaveProperty('operation_id');
    server!.close();
    expect((await deliverOnce({ dropContext: true })).bodies[0]).not.toHaveProperty('context');
    server!.close();
    const { bodies } = await deliverOnce({ newKeyPerAttempt: true }, [503]);
    expect(bodies[0]!['idempotency_key']).not.toBe(bodies[1]!['idempotency_key']);
  });

  it('the committed sellers/reference/webhook-jwks.json is the public half of the signing key', () => {
    const file = JSON.parse(readFileSync(join(import.meta.dirname, '../../sellers/reference/webhook-jwks.json'), 'utf8')) as unknown;
    expect(file).toEqual(webhookJwks());
    expect(JSON.stringify(file)).not.toMatch(/"d"/);
  });

  it('reference-seller --print-webhook-jwks prints that JWKS and exits', () => {
    const out = execFileSync(process.execPath, [join(import.meta.dirname, '../../sellers/reference-seller.js'), '--print-webhook-jwks'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(JSON.parse(out)).toEqual(webhookJwks());
  }, 25_000);

  it('serves only a push_notification_config without authentication', () => {
    expect(
      pushConfigOf({
        push_notification_config: { url: 'https://b.example/h', authentication: { schemes: ['Bearer'], credentials: 'x'.repeat(32) } },
      }),
    ).toBeUndefined();
    expect(pushConfigOf({ push_notification_config: { url: 'ftp://b.example/h' } })).toBeUndefined();
    expect(pushConfigOf({})).toBeUndefined();
  });
});
