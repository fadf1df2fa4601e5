// Timeouts measure the seller, not the harness: while the harness's main thread is blocked past a call's
// (or the connect) timeout, a seller that answers at once is read, not timed out — over stdio and HTTP —
// and a seller that never answers still times out, after the timeout's length on the seller's clock.
// The blocks are real (a busy loop on this thread) and the sellers real processes; no timer is faked.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import type { AgentConfig, HttpAgentConfig, Probe, StdioAgentConfig } from '../../harness/config/types.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import { sellerNow, sellerTimeout, stalledSoFar } from '../../harness/connect/seller-clock.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';

const BLOCK_MS = 1500;
const CALL_MS = 500;
const PRODUCTS: Probe = { tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'sports' }, intent: 'valid' };
const SIGNALS: Probe = { tool: 'get_signals', arguments: { signal_spec: 'sports fans' }, intent: 'valid' };

/** Blocks this thread: no timer, no I/O callback runs meanwhile. */
function block(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* busy */
  }
}

const base = { production: false, sandbox: false, maxBytes: DEFAULT_MAX_BYTES, secrets: [] as string[] };
const timeouts = (connectMs: number) => ({ connectMs, callMs: CALL_MS, agentMs: 30_000 });

function stdioAgent(probes: Probe[], faults: string[] = [], connectMs = 20_000): StdioAgentConfig {
  return { ...base, name: 'stdio', transport: 'stdio', ...stdioSellerCommand({ faults }), env: {}, timeouts: timeouts(connectMs), probes };
}

function httpAgent(url: string, probes: Probe[]): HttpAgentConfig {
  return { ...base, name: 'http', transport: 'http', url, headers: {}, timeouts: timeouts(20_000), probes };
}

/** Captures the agent, blocking the thread for BLOCK_MS just after the progress step `at` (the request is on its way). */
async function captureBlockedAt(agent: AgentConfig, at: string): Promise<{ capture: AgentCapture; blocked: boolean }> {
  let blocked = false;
  const capture = await captureAgent(agent, {
    scenarios: false,
    onProgress: ({ step }) => {
      if (step !== at || blocked) return;
      blocked = true;
      setImmediate(() => block(BLOCK_MS));
    },
  });
  return { capture, blocked };
}

/** A proxy to `target` that holds the answer to each `method` request `ms` before sending it. */
async function holdingProxy(
  target: string,
  method: string,
  ms: number,
): Promise<{ url: string; held: () => number; close(): Promise<void> }> {
  let held = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const r = await fetch(target, { method: req.method ?? 'POST', headers, ...(body.length ? { body } : {}) });
      const answer = Buffer.from(await r.arrayBuffer());
      if (body.includes(`"method":"${method}"`)) {
        held++;
        await new Promise((resolve) => setTimeout(resolve, ms));
      }
      const out: Record<string, string> = {};
      for (const k of ['content-type', 'mcp-session-id']) {
        const v = r.headers.get(k);
        if (v !== null) out[k] = v;
      }
      res.writeHead(r.status, out).end(answer);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    held: () => held,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the seller clock', () => {
  test('a stall of the harness moves a deadline by as long as it lasted; a deadline never fires early', async () => {
    const stalled0 = stalledSoFar();
    const t0 = performance.now();
    const s0 = sellerNow();
    const firedAt = await new Promise<number>((resolve) => {
      sellerTimeout(100, () => resolve(performance.now()));
      setTimeout(() => block(400), 10);
    });
    expect(stalledSoFar() - stalled0).toBeGreaterThanOrEqual(400 - 40);
    // 100 ms of the seller's time, plus the stall (less the heartbeat's tolerance).
    expect(firedAt - t0).toBeGreaterThanOrEqual(100 + 400 - 40);
    expect(sellerNow() - s0).toBeGreaterThanOrEqual(100);
  });

  test('a canceled deadline never fires', async () => {
    let fired = false;
    sellerTimeout(20, () => (fired = true)).cancel();
    await new Promise((r) => setTimeout(r, 80));
    expect(fired).toBe(false);
  });
});

describe('the harness blocked past the timeout while the seller answers at once', () => {
  test('stdio: the call is answered, not timed out', async () => {
    const { capture, blocked } = await captureBlockedAt(stdioAgent([PRODUCTS]), 'call get_products');
    expect(blocked).toBe(true);
    const x = capture.exchanges.find((e) => e.tool === 'get_products')!;
    expect(x.outcome.kind, JSON.stringify(x.outcome).slice(0, 300)).toBe('result');
    // The answer waited behind the block: the call took the block's length, three times the timeout.
    expect(x.durationMs).toBeGreaterThanOrEqual(BLOCK_MS - 50);
  }, 60_000);

  test('HTTP: the call is answered, not timed out', async () => {
    const seller = await startHttpSeller();
    try {
      const { capture, blocked } = await captureBlockedAt(httpAgent(seller.url, [PRODUCTS]), 'call get_products');
      expect(blocked).toBe(true);
      const x = capture.exchanges.find((e) => e.tool === 'get_products')!;
      expect(x.outcome.kind, JSON.stringify(x.outcome).slice(0, 300)).toBe('result');
      expect(x.durationMs).toBeGreaterThanOrEqual(BLOCK_MS - 50);
    } finally {
      await seller.close();
    }
  }, 60_000);

  test('connect: initialize is answered though the harness was blocked past the connect timeout', async () => {
    // Over HTTP, to a seller already running (a process start-up on a loaded machine would measure the
    // machine), behind a proxy that holds initialize's answer 300 ms: the block begins once the request
    // is out and covers the answer's arrival and the 1 s timeout.
    const seller = await startHttpSeller();
    const held = await holdingProxy(seller.url, 'initialize', 300);
    try {
      const agent: HttpAgentConfig = { ...httpAgent(held.url, [PRODUCTS]), timeouts: timeouts(1000) };
      let blocked = false;
      const capture = await captureAgent(agent, {
        scenarios: false,
        onProgress: ({ step }) => {
          if (step !== 'connect' || blocked) return;
          blocked = true;
          setTimeout(() => block(BLOCK_MS), 100);
        },
      });
      expect(blocked).toBe(true);
      expect(capture.initialize.ok, JSON.stringify(capture.initialize).slice(0, 300)).toBe(true);
      expect(held.held()).toBe(1);
    } finally {
      await held.close();
      await seller.close();
    }
  }, 60_000);
});

describe('a seller that never answers', () => {
  test('times out after the call timeout', async () => {
    const capture = await captureAgent(stdioAgent([SIGNALS], ['hang-on-call']), { scenarios: false });
    const x = capture.exchanges.find((e) => e.tool === 'get_signals')!;
    expect(x.outcome).toMatchObject({ kind: 'transport-error', failure: { kind: 'timeout' } });
    expect(x.durationMs).toBeGreaterThanOrEqual(CALL_MS);
  }, 60_000);

  test('times out though the harness was blocked: after the call timeout on the seller clock, the block not counted', async () => {
    const { capture } = await captureBlockedAt(stdioAgent([SIGNALS], ['hang-on-call']), 'call get_signals');
    const x = capture.exchanges.find((e) => e.tool === 'get_signals')!;
    expect(x.outcome).toMatchObject({ kind: 'transport-error', failure: { kind: 'timeout' } });
    expect(x.durationMs).toBeGreaterThanOrEqual(BLOCK_MS + CALL_MS - 100);
  }, 60_000);
});
