// The reference seller, live over stdio and HTTP, delivers its async tasks' status changes to a loopback
// receiver: signed (verified with its published JWKS by the harness's verifier), echoing operation_id,
// never the `submitted` answer itself, and nothing for a booking that completed inline.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newReplayStore, verifyWebhookDelivery } from '../../harness/webhooks/verify.ts';
import { webhookJwks } from '../../sellers/reference/webhooks.ts';
import { openSession, probeArguments, type Mode, type SellerSession } from '../sellers/client.ts';

type Json = Record<string, unknown>;
interface Seen {
  url: string;
  headers: Array<[string, string]>;
  body: string;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each<Mode>(['stdio', 'json'])('reference seller webhooks over %s', (mode) => {
  let session: SellerSession;
  let server: Server;
  let base = '';
  const seen: Seen[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: Array<[string, string]> = [];
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
        seen.push({ url: `${base}${req.url}`, headers, body: Buffer.concat(chunks).toString('utf8') });
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    session = await openSession(mode, { sandbox: true });
  }, 30_000);
  afterAll(async () => {
    await session?.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  test('an async booking: working and completed delivered, signed, echoing operation_id; an inline one: nothing', async () => {
    const inline = {
      ...probeArguments('create_media_buy', `${mode}-inline`),
      push_notification_config: { url: `${base}/inline`, operation_id: 'op_inline' },
    };
    const sync = (await session.call('create_media_buy', inline))['structuredContent'] as Json;
    expect(sync['status']).toBe('completed');

    const args = {
      ...probeArguments('create_media_buy', `${mode}-async`),
      packages: [{ product_id: 'sports_video_premium', pricing_option_id: 'video_cpm_fixed', budget: 5000 }],
      push_notification_config: { url: `${base}/async/${mode}`, operation_id: `op_${mode}` },
    };
    const submitted = (await session.call('create_media_buy', args))['structuredContent'] as Json;
    expect(submitted).toMatchObject({ status: 'submitted', task_id: expect.any(String) });
    for (let i = 0; i < 40 && !seen.some((s) => s.body.includes('"completed"')); i++) await sleep(50);

    expect(seen.filter((s) => s.url.includes('/inline'))).toEqual([]);
    const bodies = seen.map((s) => JSON.parse(s.body) as Json);
    expect(bodies.map((b) => b['status'])).toEqual(['working', 'completed']);
    for (const b of bodies)
      expect(b).toMatchObject({
        operation_id: `op_${mode}`,
        task_id: submitted['task_id'],
        task_type: 'create_media_buy',
        context: (args as Json)['context'],
      });
    expect(bodies[1]!['result']).toMatchObject({ media_buy_id: expect.any(String) });
    const replayStore = await newReplayStore();
    for (const s of seen)
      expect(await verifyWebhookDelivery({ method: 'POST', ...s }, webhookJwks().keys, { replayStore })).toMatchObject({ ok: true });
  });
});
