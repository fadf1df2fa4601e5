// A healthy seller whose answers are content-coded (a compressing proxy or framework in front of it) is
// judged on what it said: every coding fetch undoes — gzip, x-gzip, deflate with and without zlib's
// wrapper, br, and a chain of two — is undone, and the harness says which codings it accepts. The hostile
// side (bombs, a body that is not the gzip it claims, six layers) is test/hostile/compression.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { startHttpSeller } from '../../sellers/launch.ts';
import { proxiedAgent, sellerProxy, type ProxyCoding } from './proxy.helpers.ts';

type Seller = Awaited<ReturnType<typeof startHttpSeller>>;
const sellers = new Map<'json' | 'sse', Seller>();
const sellerUrl = (mode: 'json' | 'sse'): string => sellers.get(mode)!.url;
beforeAll(async () => {
  const [json, sse] = await Promise.all([startHttpSeller(), startHttpSeller({ responseMode: 'sse' })]);
  sellers.set('json', json).set('sse', sse);
}, 60_000);
afterAll(async () => {
  await Promise.all([...sellers.values()].map((s) => s.close()));
});

const agent = (url: string) => proxiedAgent('coded', url);

const CASES: [string, ProxyCoding[], 'json' | 'sse'][] = [
  ['gzip', ['gzip'], 'json'],
  ['x-gzip', ['x-gzip'], 'json'],
  ['deflate (zlib-wrapped)', ['deflate'], 'json'],
  ['deflate (raw)', ['deflate-raw'], 'json'],
  ['br', ['br'], 'json'],
  ['gzip then br', ['gzip', 'br'], 'json'],
  ['gzip over SSE', ['gzip'], 'sse'],
];

describe('content-coded answers from a healthy seller', () => {
  test.for(CASES)('%s (%s): every answer decoded and judged', { timeout: 60_000 }, async ([, codings, mode]) => {
    const p = await sellerProxy(sellerUrl(mode), { encode: codings });
    try {
      const capture = await captureAgent(agent(p.url), { scenarios: false });
      expect(capture.initialize.ok, JSON.stringify(capture.initialize).slice(0, 300)).toBe(true);
      expect(capture.exchanges.length).toBeGreaterThan(0);
      for (const x of capture.exchanges) expect(x.outcome.kind, `${x.tool}: ${JSON.stringify(x.outcome).slice(0, 300)}`).toBe('result');
      const products = capture.exchanges.find((x) => x.tool === 'get_products');
      expect(JSON.stringify(products?.outcome)).toContain('products');
      // Not vacuous: the answers really were coded on the wire.
      expect(p.encoded()).toBeGreaterThan(capture.exchanges.length);
    } finally {
      await p.close();
    }
  });

  test('the harness names the codings it undoes, and itself', async () => {
    const p = await sellerProxy(sellerUrl('json'));
    try {
      await captureAgent({ ...agent(p.url), probes: [] }, { scenarios: false });
      expect(p.lastHeaders()['accept-encoding']).toBe('br, gzip, deflate');
      expect(p.lastHeaders()['user-agent']).toMatch(/^adcp-conformance\/\d+\.\d+\.\d+/);
    } finally {
      await p.close();
    }
  }, 60_000);
});
