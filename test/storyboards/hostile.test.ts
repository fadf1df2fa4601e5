// A storyboard call that hangs, or answers 100 MB, costs at most our call timeout and our byte cap —
// not the runner's 60 s (twice, with its retry) nor its unbounded read — and is never graded as the
// seller's answer: the runner compares the transport's error text with the expected error code; the
// harness says untested (the transport checks own that call).
import { afterEach, describe, expect, test } from 'vitest';
import type { ServerResponse } from 'node:http';
import { PROXY_MARK } from '../../harness/storyboards/proxy.ts';
import { json, startRpcHttp, type RpcHttp, type RpcMessage } from '../hostile/rpc-http.ts';
import { httpAgent, key, runAgainst } from './helpers.ts';

const TOOLS = [
  { name: 'get_adcp_capabilities', inputSchema: { type: 'object' } },
  { name: 'get_products', inputSchema: { type: 'object' } },
];
const CAPABILITIES = { adcp: { major_versions: [3] }, supported_protocols: ['media_buy'] };
const MB = 1024 * 1024;

type Misbehaviour = (m: RpcMessage, res: ServerResponse) => void;

const servers: RpcHttp[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A seller that answers capabilities like a seller and misbehaves on every get_products. */
async function hostileSeller(onProducts: Misbehaviour): Promise<RpcHttp> {
  const server = await startRpcHttp((m, res) => {
    if (m.method === 'tools/list') return (json(res, { jsonrpc: '2.0', id: m.id, result: { tools: TOOLS } }), true);
    if (m.method !== 'tools/call') return false;
    if (m.params?.['name'] === 'get_products') return (onProducts(m, res), true);
    const context = (m.params?.['arguments'] as Record<string, unknown> | undefined)?.['context'];
    const structuredContent = { ...CAPABILITIES, ...(context !== undefined ? { context } : {}) };
    json(res, {
      jsonrpc: '2.0',
      id: m.id,
      result: { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent },
    });
    return true;
  });
  servers.push(server);
  return server;
}

const productCalls = (s: RpcHttp) => s.received.filter((m) => m.method === 'tools/call' && m.params?.['name'] === 'get_products');
const argsOf = (m: RpcMessage) => JSON.stringify(m.params?.['arguments']);

/** The three get_products steps of error_compliance (one of them expects an error answer). */
const PRODUCT_STEPS = [
  'error_responses/missing_fields',
  'version_negotiation/unsupported_major_version',
  'version_negotiation/supported_major_version',
];

describe('hostile storyboard calls', () => {
  test(
    'a hung call costs our timeout, once: no retry reaches the seller, and its steps are untested, not passed',
    { timeout: 120_000 },
    async () => {
      const seller = await hostileSeller(() => {
        /* never answers */
      });
      const callMs = 1500;
      const t0 = performance.now();
      const { run } = await runAgainst(
        httpAgent(seller.url, { timeouts: { connectMs: 10_000, callMs, agentMs: 120_000 } }),
        ['error_compliance'],
        {
          callTimeoutMs: callMs + 1000,
          keepRunnerResults: true,
        },
      );
      const elapsed = performance.now() - t0;

      // Each distinct get_products request reached the seller exactly once: the runner's retries stopped at the proxy.
      const received = productCalls(seller).map(argsOf);
      expect(received.length).toBe(PRODUCT_STEPS.length);
      expect(new Set(received).size).toBe(received.length);
      // …though the runner did retry each of them: the proxy answered the retry with the first failure.
      const repeats = run.calls.filter((c) => c.call.repeatOf !== undefined && c.call.exchange?.tool === 'get_products');
      expect(repeats.length).toBe(PRODUCT_STEPS.length);
      // Bounded by our timeout per call (plus the runner's own work), far below one 60 s runner timeout.
      expect(elapsed).toBeLessThan(PRODUCT_STEPS.length * (callMs + 1000) + 30_000);

      for (const step of PRODUCT_STEPS) {
        const mine = run.outcomes.filter((o) => o.tool.startsWith(`${step} ›`));
        expect(mine.map((o) => [key(o), o.status])).toEqual([[`storyboard.error_compliance › ${step} › step`, 'untested']]);
        expect(mine[0]!.message).toMatch(/gave no answer to get_products \(timeout/);
      }
      // The runner itself graded the missing answer as the seller's answer (its error code is the transport's
      // error text): the defect the harness neutralizes by making the step untested.
      const steps = run.runnerResults![0]!.phases.flatMap((p) => p.steps);
      const versionStep = steps.find((s) => s.step_id === 'unsupported_major_version');
      expect(versionStep?.validations.find((v) => v.check === 'error_code')).toMatchObject({
        passed: false,
        actual: expect.stringContaining(PROXY_MARK),
      });
      // The calls are Exchanges with the timeout recorded, for the transport checks.
      const exchanges = run.calls.filter((c) => c.call.exchange?.tool === 'get_products').map((c) => c.call.exchange!.outcome);
      expect(exchanges.length).toBe(2 * PRODUCT_STEPS.length); // each call and its (unforwarded) retry
      for (const o of exchanges) expect(o).toMatchObject({ kind: 'transport-error', failure: { kind: 'timeout' } });
    },
  );

  test('a 100 MB answer is cut at our byte cap: the seller gets to send a few MiB, not 100', { timeout: 120_000 }, async () => {
    const written: number[] = [];
    const seller = await hostileSeller((m, res) => {
      let sent = 0;
      const index = written.push(0) - 1;
      const chunk = Buffer.alloc(MB, 0x61); // "aaaa…" inside an endless JSON string
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":{"structuredContent":{"blob":"`);
      const pump = () => {
        while (sent < 100 * MB && !res.destroyed) {
          sent += chunk.length;
          written[index] = sent;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end('"}}}');
      };
      res.once('close', () => {
        written[index] = sent;
      });
      pump();
    });
    const maxBytes = MB;
    const { run } = await runAgainst(
      httpAgent(seller.url, { maxBytes, timeouts: { connectMs: 10_000, callMs: 20_000, agentMs: 120_000 } }),
      ['error_compliance'],
    );

    expect(written.length).toBe(PRODUCT_STEPS.length); // once per step: no retry
    for (const n of written) expect(n).toBeLessThan(24 * MB); // the cap plus socket buffers, never the 100 MB
    for (const step of PRODUCT_STEPS) {
      const mine = run.outcomes.filter((o) => o.tool.startsWith(`${step} ›`));
      expect(mine.map((o) => o.status)).toEqual(['untested']);
      expect(mine[0]!.message).toMatch(/gave no answer to get_products \(oversize/);
    }
  });
});
