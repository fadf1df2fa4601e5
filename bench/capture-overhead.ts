// What the harness's capture layer costs on top of the raw official SDK client, for one session against
// the embedded reference seller: connect + initialize, tools/list, the default probes, close.
//   npx tsx bench/capture-overhead.ts [--rounds N] [--stdio-rounds N] [--no-sse]
// Three clients do the same session, interleaved in every round (the order rotates round by round, so
// drift of a noisy machine spreads evenly), against the same seller process (HTTP) or the same command
// line (stdio); the table shows medians:
//   raw      the SDK as its README uses it: Client + StdioClientTransport / StreamableHTTPClientTransport,
//            client.listTools() (compiles every advertised outputSchema) and client.callTool() (zod-parses
//            the result, validates structuredContent against the outputSchema, throws when it does not
//            fit — caught and counted);
//   raw-req  the same Client and transports, but client.request(..., z.unknown()) for tools/list and
//            tools/call: the SDK calls the harness itself makes, without its tracking, caps and records;
//   harness  captureAgent(agent) — PinnedClient over HarnessStdioTransport / the capped undici fetch.
// Every client calls the tools of defaultProbes() (harness/capture/probes.ts) with the same arguments
// (withContext + correlationId), and an HTTP client DELETEs its session before closing, as the harness does.
// Phase times of the harness come from its onProgress steps (connect → tools/list → call … → close → done).
// CPU is this process's (user + system) only: the seller is always another process.
// No assertions: it prints a table. Wall times depend on the machine and its load; ratios are the figure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cpus, loadavg } from 'node:os';
import { z } from 'zod';
import { captureAgent } from '../harness/capture/capture-agent.ts';
import { correlationId, defaultProbes, withContext } from '../harness/capture/probes.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUTS } from '../harness/config/index.ts';
import type { AgentConfig, Probe } from '../harness/config/types.ts';
import { startHttpSeller, stdioSellerCommand } from '../sellers/launch.ts';

const argv = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const at = argv.indexOf(name);
  const n = at >= 0 ? Number(argv[at + 1]) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : dflt;
};
const HTTP_ROUNDS = flag('--rounds', 20);
const STDIO_ROUNDS = flag('--stdio-rounds', Math.max(3, Math.round(HTTP_ROUNDS * 0.4)));
const WITH_SSE = !argv.includes('--no-sse');

type Variant = 'raw' | 'raw-req' | 'harness';
const VARIANTS: Variant[] = ['raw', 'raw-req', 'harness'];

interface Sample {
  wall: number;
  connect: number;
  list: number;
  calls: number;
  close: number;
  cpu: number;
  callsCpu: number;
  nCalls: number;
  /** Calls that threw (raw callTool) or did not come back as a result / JSON-RPC error (harness). */
  errors: number;
}

const Permissive = z.unknown();
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const own = (v: unknown, k: string): unknown =>
  v !== null && typeof v === 'object' && Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined;

interface Target {
  label: string;
  agent: AgentConfig;
  /** A fresh SDK transport for the raw clients. */
  transport(): StdioClientTransport | StreamableHTTPClientTransport;
}

async function rawSession(target: Target, idiomatic: boolean): Promise<Sample> {
  const c0 = cpuNow();
  const t0 = performance.now();
  const client = new Client({ name: 'bench-raw', version: '0.0.0' }, { capabilities: {} });
  client.onerror = () => {};
  const transport = target.transport();
  if (transport instanceof StdioClientTransport) transport.stderr?.on('data', () => {}); // drained, like the harness's tail
  await client.connect(transport);
  const t1 = performance.now();

  const tools: Array<{ name: string }> = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const params = cursor === undefined ? {} : { cursor };
    const result = idiomatic ? await client.listTools(params) : await client.request({ method: 'tools/list', params }, Permissive);
    const list = own(result, 'tools');
    if (Array.isArray(list)) for (const t of list) if (typeof own(t, 'name') === 'string') tools.push({ name: own(t, 'name') as string });
    const next = own(result, 'nextCursor');
    if (typeof next !== 'string' || next === '') break;
    cursor = next;
  }
  const t2 = performance.now();
  const c2 = cpuNow();

  const probes: Probe[] = defaultProbes(tools, target.agent);
  let errors = 0;
  for (const [index, probe] of probes.entries()) {
    const params = { name: probe.tool, arguments: withContext(probe.arguments, correlationId(target.agent.name, index)) };
    try {
      if (idiomatic) await client.callTool(params);
      else await client.request({ method: 'tools/call', params }, Permissive);
    } catch {
      errors++;
    }
  }
  const t3 = performance.now();
  const c3 = cpuNow();

  if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {});
  await client.close();
  const t4 = performance.now();
  return {
    wall: t4 - t0,
    connect: t1 - t0,
    list: t2 - t1,
    calls: t3 - t2,
    close: t4 - t3,
    cpu: cpuNow() - c0,
    callsCpu: c3 - c2,
    nCalls: probes.length,
    errors,
  };
}

async function harnessSession(target: Target): Promise<Sample> {
  const steps: Array<{ step: string; t: number; cpu: number }> = [];
  const c0 = cpuNow();
  const t0 = performance.now();
  const capture = await captureAgent(target.agent, { onProgress: ({ step }) => steps.push({ step, t: performance.now(), cpu: cpuNow() }) });
  const t4 = performance.now();
  const cpu = cpuNow() - c0;
  const at = (pred: (s: string) => boolean) => steps.find((s) => pred(s.step));
  const list = at((s) => s === 'tools/list');
  const firstCall = at((s) => s.startsWith('call '));
  const close = at((s) => s === 'close');
  const done = at((s) => s === 'done');
  if (!capture.initialize.ok || !list || !firstCall || !close || !done)
    throw new Error(`harness session incomplete: ${JSON.stringify(capture.initialize)} ${JSON.stringify(capture.aborted)}`);
  return {
    wall: t4 - t0,
    connect: list.t - t0,
    list: firstCall.t - list.t,
    calls: close.t - firstCall.t,
    close: t4 - close.t,
    cpu,
    callsCpu: close.cpu - firstCall.cpu,
    nCalls: capture.exchanges.length,
    errors: capture.exchanges.filter((x) => x.outcome.kind === 'transport-error').length,
  };
}

const run = (v: Variant, target: Target) => (v === 'harness' ? harnessSession(target) : rawSession(target, v === 'raw'));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const f = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

interface Row {
  target: string;
  variant: Variant;
  n: number;
  s: Record<keyof Sample, number>;
}

async function bench(target: Target, rounds: number): Promise<Row[]> {
  for (const v of VARIANTS) await run(v, target); // warm-up: module code, JIT, the seller's first answers
  const samples = new Map<Variant, Sample[]>(VARIANTS.map((v) => [v, []]));
  for (let r = 0; r < rounds; r++) {
    const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]!);
    for (const v of order) samples.get(v)!.push(await run(v, target));
  }
  return VARIANTS.map((variant) => {
    const xs = samples.get(variant)!;
    const keys = Object.keys(xs[0]!) as Array<keyof Sample>;
    return {
      target: target.label,
      variant,
      n: xs.length,
      s: Object.fromEntries(keys.map((k) => [k, median(xs.map((x) => x[k]))])) as Row['s'],
    };
  });
}

const base = { timeouts: DEFAULT_TIMEOUTS, production: false, sandbox: true, maxBytes: DEFAULT_MAX_BYTES, secrets: [] as string[] };
const rows: Row[] = [];
const started = performance.now();
const loadBefore = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');

{
  const { command, args } = stdioSellerCommand();
  const agent: AgentConfig = { ...base, name: 'bench-stdio', transport: 'stdio', command, args, env: {} };
  rows.push(
    ...(await bench({ label: 'stdio', agent, transport: () => new StdioClientTransport({ command, args, stderr: 'pipe' }) }, STDIO_ROUNDS)),
  );
}
for (const mode of WITH_SSE ? (['json', 'sse'] as const) : (['json'] as const)) {
  const seller = await startHttpSeller({ responseMode: mode });
  try {
    const agent: AgentConfig = { ...base, name: `bench-http-${mode}`, transport: 'http', url: seller.url, headers: {} };
    rows.push(
      ...(await bench(
        { label: `http ${mode}`, agent, transport: () => new StreamableHTTPClientTransport(new URL(seller.url)) },
        HTTP_ROUNDS,
      )),
    );
  } finally {
    await seller.close();
  }
}

console.log(
  `node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} CPUs; load ${loadBefore} → ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${Math.round((performance.now() - started) / 1000)} s`,
);
console.log(
  `medians of ${STDIO_ROUNDS} (stdio) / ${HTTP_ROUNDS} (http) interleaved rounds; ms; "per call" = the probe phase / calls; ratios are harness / raw and harness / raw-req`,
);
console.log(
  '| transport | client | calls | session wall | connect+init | tools/list | per call wall | close | session CPU | per call CPU | ratio wall | ratio per-call wall | ratio CPU | ratio per-call CPU |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) {
  const { s } = row;
  const peers = rows.filter((r) => r.target === row.target);
  const raw = peers.find((r) => r.variant === 'raw')!.s;
  const req = peers.find((r) => r.variant === 'raw-req')!.s;
  const ratio = (k: 'wall' | 'cpu') => (row.variant === 'harness' ? `${(s[k] / raw[k]).toFixed(2)} / ${(s[k] / req[k]).toFixed(2)}` : '');
  const perCallCpu = (x: Row['s']) => x.callsCpu / Math.max(1, x.nCalls);
  const perCallWall = (x: Row['s']) => x.calls / Math.max(1, x.nCalls);
  const ratioOf = (g: (x: Row['s']) => number) =>
    row.variant === 'harness' ? `${(g(s) / g(raw)).toFixed(2)} / ${(g(s) / g(req)).toFixed(2)}` : '';
  console.log(
    `| ${row.target} | ${row.variant} | ${s.nCalls}${s.errors ? ` (${s.errors} threw)` : ''} | ${f(s.wall)} | ${f(s.connect)} | ${f(s.list)} | ${f(perCallWall(s))} | ${f(s.close)} | ` +
      `${f(s.cpu)} | ${f(perCallCpu(s))} | ${ratio('wall')} | ${ratioOf(perCallWall)} | ${ratio('cpu')} | ${ratioOf(perCallCpu)} |`,
  );
}
