#!/usr/bin/env node
// The dev-loop speed bench: the harness's compiled CLI against the raw official SDK (bench/raw-sdk.mjs),
// side by side in one run, every process a child of the same shape, interleaved round by round (the
// order rotates) so a noisy machine's drift spreads evenly. Prints five figures, each beside its bound
// (issue 22):
//   1. per probed call, every report on: harness (run --config, N = 1 and 401 get_products calls in one
//      session; (T401 − T1) / 400) against the raw SDK doing the same calls the same way      ≤ 1.3×
//   2. the one-agent run's fixed cost: T1 above (spawn to exit) against the raw SDK replaying that run's
//      recorded session (connect, tools/list, the same tools/call requests), spawn to exit      ≤ 2×
//   3. a one-tool `probe` of a stdio seller, start to exit, against a raw-SDK script that spawns the
//      seller, connects and calls once                                                         ≤ 2×
//   4. 64 HTTP agents × 10 probes behind a 50 ms proxy, concurrency 16: the harness's `run` against the
//      raw SDK making the same requests at the same concurrency (each agent's recorded tools/call
//      sequence, from a `run --record` before the timed rounds)                                ≤ 1.3×
//      (the "ideal" — every request 50 ms, 16 sessions at a time, nothing else — is printed beside it)
//   5. peak RSS of `npm start` (the CLI's process, worker threads included)                    ≤ 250 MiB
//      and its growth with the number of agents (1 → 16 → 64 HTTP agents) next to the report sizes
//   6. peak RSS of a run of one hostile stdio seller per large or deep answer (deep nesting, deep
//      outputSchemas, an error storm, 11.9 MB, 1,000,000 keys), each                          ≤ 450 MiB
//   node bench/speed.mjs [--rounds N]        (`npm run bench` builds first, then runs this)
//   node bench/speed.mjs --cli OTHER/bin/adcp-conformance.js --probe-via-run
//                                            another checkout's CLI (e.g. before a change) against the same
//                                            sellers; --probe-via-run times `run` of one agent with one
//                                            get_products probe for the third ratio (a CLI without `probe`)
// No assertion anywhere: it prints figures. Wall times depend on the machine and its load; the ratios are
// the figure to read, and even they move on a busy machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distProblem } from '../bin/entry.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const CLI = option('--cli') ?? join(ROOT, 'bin', 'adcp-conformance.js');
const PROBE_VIA_RUN = argv.includes('--probe-via-run');
const RAW = join(ROOT, 'bench', 'raw-sdk.mjs');
const SELLER = join(ROOT, 'sellers', 'reference-seller.js');
const RSS_PRELOAD = pathToFileURL(join(ROOT, 'bench', 'rss-preload.mjs')).href;
const ROUNDS = Math.max(1, Number(option('--rounds')) || 3);
const MiB = 1024;

const stale = distProblem();
if (stale) {
  console.error(`bench/speed.mjs measures the compiled build: ${stale}`);
  process.exit(2);
}
const { defaultProbes } = await import(pathToFileURL(join(ROOT, 'dist', 'harness', 'capture', 'probes.js')).href);
const { REFERENCE_SELLER_TASKS, REFERENCE_WEBHOOK_JWKS } = await import(pathToFileURL(join(ROOT, 'dist', 'sellers', 'launch.js')).href);

const work = mkdtempSync(join(tmpdir(), 'adcp-bench-'));
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** Run a child to its end: wall ms (spawn → exit), exit code, stdout, and its peak RSS (KiB) when asked. */
function timed(args, { rss = false } = {}) {
  const rssFile = join(work, `rss-${Math.random().toString(36).slice(2)}`);
  const nodeArgs = rss ? ['--import', RSS_PRELOAD, ...args] : args;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, nodeArgs, {
      cwd: ROOT,
      env: { ...process.env, CI: '1', NO_COLOR: '1', BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      children.delete(child);
      const ms = performance.now() - t0;
      const peak = rss && existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : undefined;
      resolve({ ms, code, stdout, stderr, peak });
    });
  });
}

/** A long-running helper process (seller, proxy) that prints a line when ready. */
async function startHelper(args, ready) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
  children.add(child);
  for await (const line of createInterface({ input: child.stdout })) {
    const m = ready.exec(line);
    if (m) {
      child.stdout.resume();
      return { value: m[1], stop: () => (children.delete(child), child.kill('SIGTERM')) };
    }
  }
  throw new Error(`${args.join(' ')} did not start`);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms) => (ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(2)} ms`);
const writeJson = (name, value) => {
  const file = join(work, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};
/** Round-robin: each round runs every job once, the order rotating by one each round. */
async function interleaved(jobs) {
  const results = Object.fromEntries(Object.keys(jobs).map((k) => [k, []]));
  const names = Object.keys(jobs);
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      results[name].push(await jobs[name]());
    }
  }
  return results;
}
const check = (label, result, ok = [0]) => {
  if (!ok.includes(result.code)) throw new Error(`${label}: exit ${result.code}\n${result.stderr}`);
  return result;
};

/**
 * An untimed `run --record` (a warm-up too); returns the recording cut down to what raw-sdk.mjs replays (agent
 * names and tools/call params, same format), so the raw side's timed run does not parse the answers, and the
 * number of calls per agent.
 */
async function recordedRun(label, runArgs, name, ok = [0, 1, 3]) {
  const recording = join(work, `${name}.record.jsonl`);
  check(label, await timed([CLI, 'run', ...runArgs, '--record', recording]), ok);
  const lines = [];
  const calls = [];
  for (const text of readFileSync(recording, 'utf8').split('\n')) {
    if (!text.trim()) continue;
    const r = JSON.parse(text);
    if (r.type === 'agent') {
      lines.push({ type: 'agent', agent: { name: r.agent.name, transport: r.agent.transport } });
      calls.push(0);
    } else if (r.type === 'exchange') {
      lines.push({ type: 'exchange', agent: r.agent, request: r.request });
      calls[calls.length - 1]++;
    }
  }
  const file = join(work, `${name}.replay.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return { file, calls };
}
console.log(
  `adcp-conformance speed bench · ${CLI} · ${cpus().length} CPUs · Node ${process.versions.node} · load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} · ${ROUNDS} round(s)`,
);
const rows = [];

// 1. Per probed call, every report on — and 2. the one-agent run's fixed cost.
{
  const seller = await startHelper([SELLER, '--transport', 'http', '--port', '0', '--exit-on-stdin-end'], /^listening (\S+)$/);
  const config = (n) =>
    writeJson(`calls-${n}.json`, {
      agents: [
        {
          name: 'reference-http',
          transport: 'http',
          url: seller.value,
          probes: Array.from({ length: n }, () => ({
            tool: 'get_products',
            arguments: defaultProbes([{ name: 'get_products' }], { sandbox: false })[0].arguments,
          })),
        },
      ],
    });
  const [c1, c401] = [config(1), config(401)];
  const out = join(work, 'out-calls');
  // Untimed (and a warm-up): the one-agent run's session, for the raw SDK to replay.
  const one = await recordedRun('harness N=1 --record', ['--config', c1, '--out', out], 'calls-1');
  const runs = await interleaved({
    h1: async () => check('harness N=1', await timed([CLI, 'run', '--config', c1, '--out', out]), [0, 1, 3]).ms,
    h401: async () => check('harness N=401', await timed([CLI, 'run', '--config', c401, '--out', out]), [0, 1, 3]).ms,
    r1: async () => check('raw N=1', await timed([RAW, 'calls', seller.value, '1'])).ms,
    r401: async () => check('raw N=401', await timed([RAW, 'calls', seller.value, '401'])).ms,
    replay1: async () => check('raw replay N=1', await timed([RAW, 'replay', one.file, c1, '1'])).ms,
  });
  seller.stop();
  const harness = (median(runs.h401) - median(runs.h1)) / 400;
  const raw = (median(runs.r401) - median(runs.r1)) / 400;
  rows.push({
    what: 'per probed call (HTTP, all reports)',
    harness: fmt(harness),
    raw: fmt(raw),
    ratio: harness / raw,
    bound: 1.3,
    note: `harness run ${fmt(median(runs.h1))} / ${fmt(median(runs.h401))}, raw ${fmt(median(runs.r1))} / ${fmt(median(runs.r401))} for 1 / 401 calls`,
  });
  rows.push({
    what: 'one-agent run, fixed cost (T1)',
    harness: fmt(median(runs.h1)),
    raw: fmt(median(runs.replay1)),
    ratio: median(runs.h1) / median(runs.replay1),
    bound: 2,
    note: `run --config of one HTTP agent, one get_products probe, spawn → exit; the raw SDK replays its ${one.calls[0]} tools/call requests (the raw one-call session: ${fmt(median(runs.r1))})`,
  });
}

// 3. One-tool probe of a stdio seller, start to exit.
{
  const sellerCommand = [process.execPath, SELLER, '--transport', 'stdio'];
  const oneProbe = writeJson('one-probe.json', {
    agents: [
      {
        name: 'reference-stdio',
        transport: 'stdio',
        command: sellerCommand[0],
        args: sellerCommand.slice(1),
        probes: [{ tool: 'get_products', arguments: defaultProbes([{ name: 'get_products' }], { sandbox: false })[0].arguments }],
      },
    ],
  });
  const harnessArgs = PROBE_VIA_RUN
    ? [CLI, 'run', '--config', oneProbe, '--out', join(work, 'out-one-probe')]
    : [CLI, 'probe', 'get_products', '--stdio', sellerCommand.map((w) => `'${w}'`).join(' ')];
  const runs = await interleaved({
    harness: async () => check('probe', await timed(harnessArgs), PROBE_VIA_RUN ? [0, 1, 3] : [0]).ms,
    raw: async () => check('raw once', await timed([RAW, 'once-stdio', 'get_products', ...sellerCommand])).ms,
  });
  const harness = median(runs.harness);
  const raw = median(runs.raw);
  rows.push({
    what: 'probe, stdio, start → exit',
    harness: fmt(harness),
    raw: fmt(raw),
    ratio: harness / raw,
    bound: 2,
    note: PROBE_VIA_RUN
      ? '`run` of one agent with one get_products probe'
      : '`probe get_products`; the harness also asks get_adcp_capabilities first',
  });
}

// 4. 64 HTTP agents × 10 probes at 50 ms, concurrency 16 — and 5. RSS growth with the agent count.
const LATENCY = 50;
const CONCURRENCY = 16;
const allTools = REFERENCE_SELLER_TASKS.map((name) => ({ name }));
// The 10 calls: the harness's default probes of a sandbox agent (7 read-only, the invalid call, 2 mutating).
const probes = defaultProbes(allTools, { sandbox: true });
const seller = await startHelper([SELLER, '--transport', 'http', '--port', '0', '--exit-on-stdin-end'], /^listening (\S+)$/);
const proxy = await startHelper([join(ROOT, 'bench', 'latency-proxy.mjs'), seller.value, String(LATENCY)], /^PORT (\d+)$/);
const proxyUrl = `http://127.0.0.1:${proxy.value}`;
const fleet = (n) =>
  Array.from({ length: n }, (_, i) => ({
    name: `agent-${String(i).padStart(2, '0')}`,
    transport: 'http',
    url: `${proxyUrl}/a${i}/mcp`,
    sandbox: true,
    webhookKeys: REFERENCE_WEBHOOK_JWKS, // as `npm start` configures it: webhook.signature verified, not untested
    probes,
  }));
const proxyCount = async () => (await (await fetch(`${proxyUrl}/__bench/count`)).json()).requests;
const proxyReset = () => fetch(`${proxyUrl}/__bench/reset`, { method: 'POST' });
{
  const config = writeJson('fleet-64.json', { agents: fleet(64) });
  const out = join(work, 'out-fleet');
  const fleetArgs = ['--config', config, '--concurrency', String(CONCURRENCY), '--out', out];
  // Untimed (and a warm-up): every agent's session, for the raw SDK to make the same tools/call requests.
  await proxyReset();
  const recorded = await recordedRun('harness fleet --record', fleetArgs, 'fleet-64', [0, 1]);
  const recordedRequests = await proxyCount();
  const requests = { harness: [], raw: [] };
  let rawErrors = 0; // calls the SDK threw on (the harness records them), in the last replay
  const runs = await interleaved({
    harness: async () => {
      await proxyReset();
      const r = check('harness fleet', await timed([CLI, 'run', ...fleetArgs]), [0, 1]);
      requests.harness.push(await proxyCount());
      return r.ms;
    },
    raw: async () => {
      await proxyReset();
      const r = check('raw replay', await timed([RAW, 'replay', recorded.file, config, String(CONCURRENCY)]));
      requests.raw.push(await proxyCount());
      rawErrors = JSON.parse(r.stdout).errors;
      return r.ms;
    },
  });
  const waves = Math.ceil(64 / CONCURRENCY);
  const perAgent = median(requests.harness) / 64;
  const ideal = waves * perAgent * LATENCY;
  const harness = median(runs.harness);
  const raw = median(runs.raw);
  const calls = recorded.calls.reduce((a, b) => a + b, 0) / recorded.calls.length;
  rows.push({
    what: '64 HTTP agents × 10 probes, 50 ms, conc. 16',
    harness: fmt(harness),
    raw: fmt(raw),
    ratio: harness / raw,
    bound: 1.3,
    note:
      `the raw SDK replays the recorded ${calls.toFixed(1)} tools/call per agent (the harness's concurrent pair one after the other; ` +
      `${(rawErrors / 64).toFixed(1)} per agent thrown by callTool, caught); ` +
      `HTTP requests per agent: harness ${perAgent.toFixed(1)} (${(recordedRequests / 64).toFixed(1)} in the recorded run), raw ${(median(requests.raw) / 64).toFixed(1)}; ` +
      `the ideal (every request 50 ms, nothing else) ${fmt(ideal)}: harness ${(harness / ideal).toFixed(2)}×, raw ${(raw / ideal).toFixed(2)}×`,
  });
}
{
  const start = check('npm start', await timed([CLI, 'run', '--out', join(work, 'out-start')], { rss: true }));
  const growth = [];
  for (const n of [1, 16, 64]) {
    const out = join(work, `out-rss-${n}`);
    const r = check(
      `fleet ${n}`,
      await timed(
        [CLI, 'run', '--config', writeJson(`rss-${n}.json`, { agents: fleet(n) }), '--concurrency', String(CONCURRENCY), '--out', out],
        { rss: true },
      ),
      [0, 1],
    );
    const reports = ['report.json', 'junit.xml', 'summary.md', 'report.html'].reduce(
      (sum, f) => sum + (existsSync(join(out, f)) ? statSync(join(out, f)).size : 0),
      0,
    );
    growth.push(`${n}: ${(r.peak / MiB).toFixed(0)} MiB (reports ${(reports / 1024 / 1024).toFixed(1)} MiB)`);
  }
  rows.push({
    what: 'peak RSS of npm start',
    harness: `${(start.peak / MiB).toFixed(0)} MiB`,
    raw: '—',
    ratio: start.peak / MiB,
    bound: 250,
    unit: ' MiB',
    note: `peak RSS by HTTP agents ${growth.join(' · ')}`,
  });
}
// 6. Large and deep answers from a hostile stdio seller (test/hostile/servers/hostile-stdio.mjs), one run each:
// peak RSS against 450 MiB, wall time against the agent's timeout + 20 s (issue 22). Not interleaved: the
// figure is memory, which the machine's load does not move much.
{
  const HOSTILE = join(ROOT, 'test', 'hostile', 'servers', 'hostile-stdio.mjs');
  const AGENT_MS = 15_000;
  const cases = [
    ['deep-nesting', 'structuredContent 200k levels deep'],
    ['deep-schema', 'an outputSchema 10k levels deep'],
    ['deep-schema-200k', 'an outputSchema 200k levels deep (8 MB tools/list)'],
    ['schema-error-storm', 'an answer failing its outputSchema 400k times'],
    ['big-answer', 'an 11.9 MB answer'],
    ['many-keys', 'a 16 MB answer of 1,000,000 keys'],
  ];
  for (const [behaviour, what] of cases) {
    const config = writeJson(`large-${behaviour}.json`, {
      agents: [
        {
          name: behaviour,
          transport: 'stdio',
          command: process.execPath,
          args: [HOSTILE, behaviour],
          maxBytes: 20 * 1024 * 1024,
          timeouts: { call: 8000, agent: AGENT_MS },
        },
      ],
    });
    const r = check(
      behaviour,
      await timed([CLI, 'run', '--config', config, '--out', join(work, `out-${behaviour}`)], { rss: true }),
      [0, 1],
    );
    rows.push({
      what: `peak RSS, ${behaviour}`,
      harness: `${(r.peak / MiB).toFixed(0)} MiB`,
      raw: '—',
      ratio: r.peak / MiB,
      bound: 450,
      unit: ' MiB',
      note: `${what}: ${fmt(r.ms)} spawn → exit (bound: the agent's ${AGENT_MS / 1000} s timeout + 20 s${r.ms > AGENT_MS + 20_000 ? ': OVER' : ''})`,
    });
  }
}
proxy.stop();
seller.stop();

console.log('');
const width = Math.max(...rows.map((r) => r.what.length));
for (const r of rows) {
  const verdict = r.ratio <= r.bound ? 'ok' : 'OVER';
  const [figure, bound] = r.unit ? [`${r.ratio.toFixed(0)}${r.unit}`, `${r.bound}${r.unit}`] : [`${r.ratio.toFixed(2)}×`, `${r.bound}×`];
  console.log(`${r.what.padEnd(width)}  ${figure} (bound ${bound}) ${verdict}   harness ${r.harness} · raw ${r.raw}`);
  console.log(`${''.padEnd(width)}  ${r.note}`);
}
console.log(
  `load at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
