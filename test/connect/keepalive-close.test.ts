// A seller that closes a kept-alive connection just as the harness reuses it (Node's 5 s keep-alive
// timeout against a harness that paused or stalled): the request dies unread with "other side closed",
// and the harness sends it once more on a fresh connection — a healthy seller is not called broken.
// Made deterministic by a proxy in front of the reference seller that drops every connection on its
// second request, unanswered. A connection dropped on its first request is still a failure.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { startHttpSeller } from '../../sellers/launch.ts';
import { proxiedAgent, sellerProxy } from './proxy.helpers.ts';

let seller: { url: string; close(): Promise<void> };
beforeAll(async () => {
  seller = await startHttpSeller();
}, 60_000);
afterAll(async () => {
  await seller?.close();
});

const agent = (url: string) => proxiedAgent('keepalive', url);

describe('a kept-alive connection closed as the harness reuses it', () => {
  test('the request is sent once more on a fresh connection: every call answered', async () => {
    const p = await sellerProxy(seller.url, { dropAt: 2 });
    try {
      const capture = await captureAgent(agent(p.url), { scenarios: false });
      expect(capture.initialize.ok).toBe(true);
      for (const x of capture.exchanges) expect(x.outcome.kind, `${x.tool}: ${JSON.stringify(x.outcome).slice(0, 200)}`).toBe('result');
      // Not vacuous: connections were dropped under live requests.
      expect(p.dropped()).toBeGreaterThan(0);
    } finally {
      await p.close();
    }
  }, 60_000);

  test('a connection dropped on its first request is the seller failing: not retried, reported', async () => {
    const p = await sellerProxy(seller.url, { dropAt: 1 });
    try {
      const capture = await captureAgent(agent(p.url), { scenarios: false });
      expect(capture.initialize.ok).toBe(false);
      expect(JSON.stringify(capture.initialize)).toMatch(/other side closed|closed|socket/i);
    } finally {
      await p.close();
    }
  }, 60_000);
});
