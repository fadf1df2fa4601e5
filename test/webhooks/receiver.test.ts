// The webhook receiver, live on 127.0.0.1 (real sockets, ephemeral ports): what it records, what it answers,
// and that every bound holds.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { NOT_ANSWERED, REDACTED, WebhookReceiver, type ReceiverBounds } from '../../harness/webhooks/receiver.ts';

const open: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

async function receiver(bounds: Partial<ReceiverBounds> = {}) {
  const r = new WebhookReceiver({ bounds });
  await r.start();
  open.push(r);
  const agent = r.register();
  return { r, agent, url: agent.urlFor(3, 'op-3') };
}

function post(url: string, body: Buffer | string, headers: Record<string, string> = {}, method = 'POST'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the webhook receiver', () => {
  test('listens on loopback only and hands out <base>/<token>/<call> URLs', async () => {
    const { r, agent, url } = await receiver();
    expect(r.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).toBe(`${r.base}/${agent.token}/3`);
    expect(agent.token).toMatch(/^[0-9a-f]{24}$/);
  });

  test('keeps the exact bytes and headers, answers 503 to the first delivery of an event and 204 after', async () => {
    const { agent, url } = await receiver();
    // Key order and spacing a re-serialization would lose: the bytes must survive for signature checks.
    const body = '{"idempotency_key":"evt-1",  "status":"completed","z":1,"a":"é"}';
    expect(await post(url, body, { 'signature-input': 'sig1=("@method")', authorization: 'Bearer s3cret' })).toBe(503);
    expect(await post(url, body)).toBe(204);
    expect(await post(url, body.replace('completed', 'failed'))).toBe(204); // same idempotency_key: same event
    expect(await post(url, '{"idempotency_key":"evt-2"}')).toBe(503);
    const [first] = agent.capture().deliveries;
    expect(first).toMatchObject({ method: 'POST', call: 3, body, bodyEncoding: 'utf8', bodyBytes: Buffer.byteLength(body), answered: 503 });
    expect(first!.target).toBe(new URL(url).pathname);
    expect(first!.headers).toContainEqual(['signature-input', 'sig1=("@method")']);
    expect(first!.headers).toContainEqual(['authorization', REDACTED]);
    expect(JSON.stringify(agent.capture())).not.toContain('s3cret');
    expect(agent.capture().deliveries.map((d) => d.answered)).toEqual([503, 204, 204, 503]);
  });

  test('a body without idempotency_key (or not JSON) is its own event by hash; non-UTF-8 bytes are kept as base64', async () => {
    const { agent, url } = await receiver();
    expect(await post(url, 'not json')).toBe(503);
    expect(await post(url, 'not json')).toBe(204);
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
    expect(await post(url, bytes)).toBe(503);
    const d = agent.capture().deliveries[2]!;
    expect(d.bodyEncoding).toBe('base64');
    expect(Buffer.from(d.body, 'base64')).toEqual(bytes);
  });

  test('a path it did not hand out is recorded and answered 404 (no call); another method 405', async () => {
    const { r, agent } = await receiver();
    expect(await post(`${r.base}/elsewhere`, '{}')).toBe(404);
    expect(await post(`${r.base}/${agent.token}/99`, '{}')).toBe(404);
    expect(await post(`${r.base}/${agent.token}/3?x=1`, '', {}, 'PUT')).toBe(405);
    const ds = agent.capture().deliveries;
    expect(ds.map((d) => [d.target, d.call, d.answered])).toEqual([
      ['/elsewhere', undefined, 404],
      [`/${agent.token}/99`, undefined, 404],
      [`/${agent.token}/3?x=1`, 3, 405],
    ]);
  });

  test('a body past the byte bound is answered 413 and cut, the first bytes kept', async () => {
    const { agent, url } = await receiver({ maxBodyBytes: 1000 });
    const status = await post(url, 'x'.repeat(5000)).catch(() => 'reset');
    expect([413, 'reset']).toContain(status);
    await until(() => agent.capture().deliveries[0]?.cut !== undefined);
    const d = agent.capture().deliveries[0]!;
    expect(d).toMatchObject({ cut: 'bytes', answered: 413 });
    expect(d.body).toBe('x'.repeat(1000));
    expect(d.bodyBytes).toBeGreaterThan(1000);
  });

  test('a body slower than the time bound is answered 408 and cut; an abandoned one is recorded as aborted', async () => {
    const { agent, url } = await receiver({ bodyMs: 300 });
    const { port, pathname } = new URL(url);
    const slow = connect(Number(port), '127.0.0.1');
    slow.write(`POST ${pathname} HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{"a":`);
    const reply = await new Promise<string>((resolve) => {
      let got = '';
      slow.on('data', (b) => (got += b.toString()));
      slow.on('close', () => resolve(got));
      slow.on('error', () => resolve(got));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(agent.capture().deliveries[0]).toMatchObject({ cut: 'time', answered: 408, body: '{"a":', bodyBytes: 5 });

    const gone = connect(Number(port), '127.0.0.1');
    gone.write(`POST ${pathname} HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{"b":`);
    await until(() => agent.capture().deliveries.length === 2);
    gone.destroy();
    await until(() => agent.capture().deliveries[1]?.cut !== undefined);
    expect(agent.capture().deliveries[1]).toMatchObject({ cut: 'aborted', answered: NOT_ANSWERED, body: '{"b":' });
  });

  test('past the count bound deliveries are counted, not kept, and answered 429 unread', async () => {
    const { agent, url } = await receiver({ maxDeliveries: 3 });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await post(url, `{"idempotency_key":"k${i}"}`).catch(() => 'reset'));
    expect(statuses.slice(0, 3)).toEqual([503, 503, 503]);
    expect(statuses.slice(3).every((s) => s === 429 || s === 'reset')).toBe(true);
    const c = agent.capture();
    expect(c.deliveries).toHaveLength(3);
    expect(c.omitted).toBe(3);
  });

  test('past the total byte bound deliveries are omitted', async () => {
    const { agent, url } = await receiver({ maxBodyBytes: 400, maxTotalBytes: 1000 });
    for (let i = 0; i < 5; i++) await post(url, `{"idempotency_key":"k${i}","pad":"${'p'.repeat(300)}"}`).catch(() => 'reset');
    const c = agent.capture();
    expect(c.deliveries.reduce((n, d) => n + Buffer.byteLength(d.body), 0)).toBeLessThanOrEqual(1000);
    expect(c.omitted).toBeGreaterThan(0);
    expect(c.deliveries.length + c.omitted).toBe(5);
  });

  test('a public base names the forwarder in the URLs; the receiver still listens on loopback', async () => {
    const r = new WebhookReceiver({ publicBase: 'https://hooks.example.test/fwd/' });
    await r.start();
    open.push(r);
    const agent = r.register();
    expect(agent.urlFor(0, 'op')).toBe(`https://hooks.example.test/fwd/${agent.token}/0`);
    expect(agent.capture()).toMatchObject({ kind: 'public', base: 'https://hooks.example.test/fwd' });
    // A forwarder that keeps its own prefix: routed by the last two segments.
    const port = (r as unknown as { address: string }).address.split(':').pop();
    expect(await post(`http://127.0.0.1:${port}/fwd/${agent.token}/0`, '{}')).toBe(503);
    expect(agent.capture().deliveries[0]).toMatchObject({ call: 0 });
  });

  test('close drops connections still open and stops listening', async () => {
    const { r, url } = await receiver();
    const { port } = new URL(url);
    const idle = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => idle.on('connect', resolve));
    const closed = new Promise((resolve) => idle.on('close', resolve));
    await r.close();
    await closed;
    await expect(post(url, '{}')).rejects.toThrow();
  });
});

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
