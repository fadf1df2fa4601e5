// Timeouts measure the seller, not the harness: while the harness's main thread is blocked past a call's
// (or the connect) timeout, a seller that answers promptly is read, not timed out — over stdio and HTTP —
// and a seller that never answers still times out, after the timeout's length on the seller's clock.
// The blocks are real (a busy loop on this thread) and the sellers real processes; no timer is faked.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import type { AgentConfig, HttpAgentConfig, Probe, StdioAgentConfig } from '../../harness/config/types.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import { sellerNow, sellerTimeout, stalledSoFar } from '../../harness/connect/seller-clock.ts';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import { startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';
import { sellerProxy } from './proxy.helpers.ts';

const BLOCK_MS = 1500;
const CALL_MS = 500;
/** How long a prompt seller's answer is held back (well within CALL_MS), and when the block begins. */
const HOLD_MS = 300;
const BLOCK_AFTER_MS = 100;
const RPC_STDIO = fileURLToPath(new URL('../hostile/servers/rpc-stdio.mjs', import.meta.url));
const CAPABILITIES: Probe = { tool: 'get_adcp_capabilities', arguments: {}, intent: 'valid' };
/** The connect test's timeout: the proxy and a seller on a loaded machine answer well within it, the block outlasts it. */
const CONNECT_MS = 2000;
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

/** The reference seller (with `faults`), or the given command. */
function stdioAgent(
  probes: Probe[],
  faults: string[] = [],
  connectMs = 20_000,
  command: { command: string; args: string[] } = stdioSellerCommand({ faults }),
): StdioAgentConfig {
  return { ...base, name: 'stdio', transport: 'stdio', ...command, env: {}, timeouts: timeouts(connectMs), probes };
}

function httpAgent(url: string, probes: Probe[]): HttpAgentConfig {
  return { ...base, name: 'http', transport: 'http', url, headers: {}, timeouts: timeouts(20_000), probes };
}

/** Captures the agent, blocking the thread for BLOCK_MS `afterMs` after the progress step `at` (at once: the request is on its way). */
async function captureBlockedAt(agent: AgentConfig, at: string, afterMs?: number): Promise<{ capture: AgentCapture; blocked: boolean }> {
  let blocked = false;
  const capture = await captureAgent(agent, {
    scenarios: false,
    onProgress: ({ step }) => {
      if (step !== at || blocked) return;
      blocked = true;
      // In the loop's check phase, as a burst of the harness's own work would be: the next turn of the loop
      // starts with its timers (a plain timer would fire there, before the poll reads the answer).
      if (afterMs === undefined) setImmediate(() => block(BLOCK_MS));
      else setTimeout(() => setImmediate(() => block(BLOCK_MS)), afterMs);
    },
  });
  return { capture, blocked };
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
  /**
   * The call, with the block inside it: the seller's answer is held HOLD_MS (well within the call timeout)
   * and the block begins BLOCK_AFTER_MS after the call's progress step, once the request is out, so it
   * covers the answer's arrival and the timeout. (Blocking at once after the step raced the request's
   * write and the answer's read on a loaded machine.) Should the request still leave after the block
   * began (nothing proven), the capture is made again, at most three times.
   */
  async function blockedCall(agent: AgentConfig, tool: string): Promise<Exchange> {
    let x: Exchange | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const { capture, blocked } = await captureBlockedAt(agent, `call ${tool}`, BLOCK_AFTER_MS);
      expect(blocked).toBe(true);
      x = capture.exchanges.find((e) => e.tool === tool)!;
      if (x.outcome.kind !== 'result' || x.durationMs >= BLOCK_MS - 50) break;
    }
    return x!;
  }

  test('stdio: the call is answered, not timed out', async () => {
    const held = { command: process.execPath, args: [RPC_STDIO, 'hold-answer', String(HOLD_MS)] };
    const x = await blockedCall(stdioAgent([CAPABILITIES], [], 20_000, held), CAPABILITIES.tool);
    expect(x.outcome.kind, JSON.stringify(x.outcome).slice(0, 300)).toBe('result');
    // The answer waited behind the block: the call took the block's length, three times the timeout.
    expect(x.durationMs).toBeGreaterThanOrEqual(BLOCK_MS - 50);
  }, 60_000);

  test('HTTP: the call is answered, not timed out', async () => {
    const seller = await startHttpSeller();
    const held = await sellerProxy(seller.url, { hold: { method: 'tools/call', ms: HOLD_MS } });
    try {
      const x = await blockedCall(httpAgent(held.url, [PRODUCTS]), PRODUCTS.tool);
      expect(x.outcome.kind, JSON.stringify(x.outcome).slice(0, 300)).toBe('result');
      expect(x.durationMs).toBeGreaterThanOrEqual(BLOCK_MS - 50);
      expect(held.held()).toBeGreaterThanOrEqual(1);
    } finally {
      await held.close();
      await seller.close();
    }
  }, 60_000);

  test('connect: initialize is answered though the harness was blocked past the connect timeout', async () => {
    // Over HTTP, to a seller already running (a process start-up on a loaded machine would measure the
    // machine), behind a proxy that holds initialize's answer 300 ms: the block begins once the request
    // is out and covers the answer's arrival and the connect timeout.
    const seller = await startHttpSeller();
    const held = await sellerProxy(seller.url, { hold: { method: 'initialize', ms: 300 } });
    try {
      const agent: HttpAgentConfig = { ...httpAgent(held.url, [PRODUCTS]), timeouts: timeouts(CONNECT_MS) };
      let blocked = false;
      const capture = await captureAgent(agent, {
        scenarios: false,
        onProgress: ({ step }) => {
          if (step !== 'connect' || blocked) return;
          blocked = true;
          setTimeout(() => block(CONNECT_MS + 1000), 100);
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
