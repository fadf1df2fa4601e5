// Peak RSS of the harness while sellers stream 200 MB answers (JSON body, SSE body, one stdio line).
// The sellers run as separate processes, so only the harness's own memory is measured.
// Then, for comparison, the same 200 MB answer over HTTP (JSON body, then SSE) read by the raw official
// SDK client (Client + StreamableHTTPClientTransport, callTool): it has no size limit and buffers the
// whole body, so it runs in a CHILD process (`--raw-child`), bounded by --max-old-space-size and a
// timeout; the harness reads the same seller in a child of the same shape (`--harness-child`), and both
// children are measured the same way: peak RSS = max of the child's own resourceUsage().maxRSS and its
// /proc/<pid>/status VmHWM polled by the parent (the latter survives a crash of the child).
//   npx tsx bench/memory-cap.ts [--no-raw-sse]
// No assertions: it prints the figures (the cap is proven by test/connect/live-*.test.ts).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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

const HERE = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHILD_HEAP_MB = 2048;
const CHILD_TIMEOUT_MS = 90_000;

/** What a child prints as its last stdout line (one JSON object). */
interface ChildReport {
  rssBefore: number;
  maxRss: number;
  ms: number;
  /** raw: characters of the tool's text received; harness: the outcome as `kind@bytesSeen`. */
  got: string;
}

/** Child mode: one `huge` call against `url`, by the raw SDK client or by the harness; prints a ChildReport. */
async function child(kind: 'raw' | 'harness', url: string): Promise<void> {
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  let got: string;
  if (kind === 'raw') {
    const client = new Client({ name: 'bench-raw', version: '0.0.0' }, { capabilities: {} });
    client.onerror = () => {};
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'huge', arguments: {} }, undefined, { timeout: CHILD_TIMEOUT_MS });
      const first = (result.content as Array<{ text?: string }>)[0];
      got = `result, ${first?.text?.length ?? 0} chars of text`;
    } catch (err) {
      got = `threw: ${String(err).slice(0, 120)}`;
    }
    await transport.terminateSession().catch(() => {});
    await client.close();
  } else {
    const agent: HttpAgentConfig = {
      ...base,
      probes: [{ tool: 'huge', arguments: {} }],
      name: 'bench-child',
      transport: 'http',
      url,
      headers: {},
    };
    const capture = await captureAgent(agent);
    got = capture.exchanges
      .map(
        (x) =>
          `${x.outcome.kind === 'transport-error' ? x.outcome.failure.kind : x.outcome.kind}@${x.outcome.kind === 'transport-error' ? (x.outcome.failure.bytesSeen ?? '-') : (x.bytes ?? '-')}`,
      )
      .join(' ');
  }
  const report: ChildReport = { rssBefore, maxRss: process.resourceUsage().maxRSS * 1024, ms: performance.now() - t0, got };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(0);
}

/** VmHWM (peak RSS) of a live process, in bytes; undefined when unreadable (not Linux, already reaped). */
function vmHwm(pid: number): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Run one child; its peak RSS from its own report and from polling /proc, whichever is higher. */
async function runChild(kind: 'raw' | 'harness', url: string): Promise<{ report?: ChildReport; peak: number; why?: string; ms: number }> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [`--max-old-space-size=${CHILD_HEAP_MB}`, '--import', 'tsx', HERE, `--${kind}-child`, url], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, vmHwm(proc.pid!) ?? 0)), 10);
  let stdout = '';
  let stderr = '';
  proc.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  proc.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-2000)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill('SIGKILL');
  }, CHILD_TIMEOUT_MS);
  const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  clearTimeout(timer);
  clearInterval(poll);
  const line = stdout.trim().split('\n').pop() ?? '';
  let report: ChildReport | undefined;
  try {
    report = JSON.parse(line) as ChildReport;
    peak = Math.max(peak, report.maxRss);
  } catch {
    report = undefined;
  }
  const why = timedOut
    ? `killed after ${CHILD_TIMEOUT_MS} ms`
    : exit.code !== 0 || !report
      ? `exited (code ${exit.code}, signal ${exit.signal})${/heap out of memory|Allocation failed/i.test(stderr) ? ': JavaScript heap out of memory' : ''}`
      : undefined;
  return { ...(report ? { report } : {}), peak, ...(why ? { why } : {}), ms: performance.now() - t0 };
}

async function compareChildren(): Promise<void> {
  console.log(
    `\nraw SDK vs harness, one 200 MB answer each, in child processes (--max-old-space-size=${CHILD_HEAP_MB}, ${CHILD_TIMEOUT_MS / 1000} s timeout)`,
  );
  const modes = process.argv.includes('--no-raw-sse') ? (['json'] as const) : (['json', 'sse'] as const);
  for (const mode of modes) {
    const seller = await startHttpSeller(mode);
    try {
      const h = await runChild('harness', seller.url);
      const r = await runChild('raw', seller.url);
      const line = (label: string, x: Awaited<ReturnType<typeof runChild>>) =>
        `${label.padEnd(12)} peak RSS ${(x.peak / MiB).toFixed(1)} MiB` +
        (x.report
          ? ` (before the call ${(x.report.rssBefore / MiB).toFixed(1)} MiB, +${((x.peak - x.report.rssBefore) / MiB).toFixed(1)} MiB) · call ${Math.round(x.report.ms)} ms · ${x.report.got}`
          : '') +
        (x.why ? ` · ${x.why}` : '') +
        ` · child ${Math.round(x.ms)} ms`;
      console.log(`${mode} ${line('harness', h)}`);
      console.log(`${mode} ${line('raw SDK', r)}`);
      const growth = (x: Awaited<ReturnType<typeof runChild>>) => (x.report ? x.peak - x.report.rssBefore : NaN);
      console.log(
        `${mode} ratio raw/harness: peak ${(r.peak / h.peak).toFixed(1)}× · growth ${(growth(r) / growth(h)).toFixed(0)}×` +
          (r.why ? ' (raw child did not finish: a lower bound)' : ''),
      );
    } finally {
      seller.stop();
    }
  }
}

const childAt = process.argv.findIndex((a) => a === '--raw-child' || a === '--harness-child');
if (childAt >= 0) {
  await child(process.argv[childAt] === '--raw-child' ? 'raw' : 'harness', process.argv[childAt + 1]!);
} else {
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
  const stdio: StdioAgentConfig = {
    ...base,
    name: 'bench-stdio',
    transport: 'stdio',
    command: process.execPath,
    args: [SERVERS + 'hostile-stdio.mjs'],
    env: {},
  };
  await measure('stdio', () => captureAgent(stdio));
  clearInterval(track);
  // getrusage's high-water mark sees spikes a 5 ms sampler can miss (it includes start-up, before any call).
  console.log(
    `overall harness peak RSS ${(overallPeak / MiB).toFixed(1)} MiB sampled · ${((process.resourceUsage().maxRSS * 1024) / MiB).toFixed(1)} MiB maxRSS (getrusage) (node ${process.version})`,
  );
  await compareChildren();
}
