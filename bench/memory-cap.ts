// Peak RSS of the harness while sellers stream 200 MB answers (JSON body, SSE body, one stdio line).
// The sellers run as separate processes, so only the harness's own memory is measured.
//   npx tsx bench/memory-cap.ts
// No assertions: it prints the figures (the cap is proven by test/connect/live-*.test.ts).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { HttpAgentConfig, StdioAgentConfig } from '../harness/config/types.ts';
import { captureAgent } from '../harness/capture/capture-agent.ts';

const SERVERS = fileURLToPath(new URL('../test/fixtures/servers/', import.meta.url));
const ROUNDS = 3;
const MiB = 1024 * 1024;
const base = {
  timeouts: { connectMs: 10_000, callMs: 30_000, agentMs: 120_000 },
  production: false,
  sandbox: false,
  maxBytes: 1_114_112,
  secrets: [],
  probes: Array.from({ length: ROUNDS }, () => ({ tool: 'huge', arguments: {} })),
};

async function startHttpSeller(mode: 'json' | 'sse'): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [SERVERS + 'hostile-http.mjs', '--mode', mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const m = /^PORT (\d+)$/.exec(line);
    if (m) return { url: `http://127.0.0.1:${m[1]}/mcp`, stop: () => child.kill('SIGTERM') };
  }
  throw new Error('seller did not start');
}

async function measure(label: string, run: () => Promise<unknown>): Promise<void> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const t0 = performance.now();
  const capture = (await run()) as { exchanges: Array<{ outcome: { kind: string; failure?: { kind: string; bytesSeen?: number } } }> };
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const outcomes = capture.exchanges.map((x) => `${x.outcome.failure?.kind ?? x.outcome.kind}@${x.outcome.failure?.bytesSeen ?? '-'}`);
  console.log(
    `${label.padEnd(6)} rss before ${(before / MiB).toFixed(1)} MiB · peak ${(peak / MiB).toFixed(1)} MiB · +${((peak - before) / MiB).toFixed(1)} MiB · ` +
      `${ROUNDS}×200 MB offered · ${Math.round(performance.now() - t0)} ms · ${outcomes.join(' ')}`,
  );
}

let overallPeak = 0;
const track = setInterval(() => (overallPeak = Math.max(overallPeak, process.memoryUsage().rss)), 5);
for (const mode of ['json', 'sse'] as const) {
  const seller = await startHttpSeller(mode);
  try {
    const agent: HttpAgentConfig = { ...base, name: `bench-${mode}`, transport: 'http', url: seller.url, headers: {} };
    await measure(mode, () => captureAgent(agent));
  } finally {
    seller.stop();
  }
}
const stdio: StdioAgentConfig = { ...base, name: 'bench-stdio', transport: 'stdio', command: process.execPath, args: [SERVERS + 'hostile-stdio.mjs'], env: {} };
await measure('stdio', () => captureAgent(stdio));
clearInterval(track);
console.log(`overall harness peak RSS ${(overallPeak / MiB).toFixed(1)} MiB (node ${process.version})`);
