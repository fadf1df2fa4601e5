#!/usr/bin/env node
// Timeouts under load (issue 22): do healthy sellers stay reachable when the harness shares a busy machine?
// Three CPU-bound processes and the harness runs at `nice -n 10`, prompt sellers at normal priority (so
// the sellers answer in milliseconds and any timeout is the harness's own lateness), then ROUNDS rounds of
// four `run --config` side by side, each with a 3 s connect timeout. Per run it prints the exit code, the
// reachable agents and every timeout its report.json tells of: an unreachable agent, a down reason or
// aborted session that is a timeout, outcomes saying `no answer within`, `did not answer`, `timed out`,
// `timeout` or `took longer than` (judging budgets). It asserts nothing; it prints.
//   node bench/load-timeouts.mjs [--rounds N] [--runs N] [--burners N] [--http-agents N] [--stdio-agents N]
//                                [--connect-ms MS] [--cli OTHER/bin/adcp-conformance.js]
// Defaults: 2 rounds of 4 runs, 3 burners, per run 4 HTTP agents (one HTTP reference seller per run,
// shared by its agents) and 1 stdio agent, all sandbox, connect timeout 3000 ms. The stdio seller is the
// harness's own child: run as root, it is started through `nice -n -10` (back to nice 0, like the HTTP
// sellers); otherwise it inherits the harness's nice 10 and its start-up competes with the load.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { distProblem } from '../bin/entry.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const count = (name, fallback) => {
  const n = Number(option(name) ?? fallback);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
};
const CLI = option('--cli') ?? join(ROOT, 'bin', 'adcp-conformance.js');
const SELLER = join(ROOT, 'sellers', 'reference-seller.js');
const JWKS = join(ROOT, 'sellers', 'reference', 'webhook-jwks.json'); // as `npm start` configures it
const ROUNDS = Math.max(1, count('--rounds', 2));
const RUNS = Math.max(1, count('--runs', 4));
const BURNERS = count('--burners', 3);
const HTTP_AGENTS = count('--http-agents', 4);
const STDIO_AGENTS = count('--stdio-agents', 1);
const CONNECT_MS = Math.max(1, count('--connect-ms', 3000));
const NICE = ['nice', '-n', '10'];
// The stdio seller is the harness's child and inherits its nice 10; only a privileged user may bring it back to 0.
const PRIVILEGED = process.getuid?.() === 0;

const stale = distProblem();
if (stale) {
  console.error(`bench/load-timeouts.mjs runs the compiled build: ${stale}`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'adcp-load-'));
/** Every process this script started; the harness runs lead process groups (their stdio sellers die with them). */
const children = new Set();
const stopAll = () => {
  for (const c of children) {
    try {
      if (c.group) process.kill(-c.child.pid, 'SIGKILL');
      else c.child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
};
process.on('exit', () => {
  stopAll();
  rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

function track(child, group = false) {
  const entry = { child, group };
  children.add(entry);
  child.on('exit', () => children.delete(entry));
  return child;
}

/** An HTTP reference seller at normal priority; resolves with its URL once it listens. */
async function startSeller() {
  const child = track(
    spawn(process.execPath, [SELLER, '--transport', 'http', '--port', '0', '--exit-on-stdin-end'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'ignore'],
    }),
  );
  for await (const line of createInterface({ input: child.stdout })) {
    const m = /^listening (\S+)$/.exec(line);
    if (m) {
      child.stdout.resume();
      return m[1];
    }
  }
  throw new Error('the reference seller did not start');
}

function configFor(slot, url) {
  const agents = [
    ...Array.from({ length: HTTP_AGENTS }, (_, i) => ({ name: `http-${i}`, transport: 'http', url, sandbox: true, webhookKeys: JWKS })),
    ...Array.from({ length: STDIO_AGENTS }, (_, i) => ({
      name: `stdio-${i}`,
      transport: 'stdio',
      ...(PRIVILEGED
        ? { command: 'nice', args: ['-n', '-10', process.execPath, SELLER, '--transport', 'stdio'] }
        : { command: process.execPath, args: [SELLER, '--transport', 'stdio'] }),
      sandbox: true,
      webhookKeys: JWKS,
    })),
  ];
  const file = join(work, `run-${slot}.json`);
  writeFileSync(file, JSON.stringify({ defaults: { timeouts: { connect: CONNECT_MS } }, agents }));
  return file;
}

/** One niced `run --config`, spawn to exit: its exit code, wall ms, the report's path and the output's tail. */
function harnessRun(config, out) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = track(
      spawn(NICE[0], [...NICE.slice(1), process.execPath, CLI, 'run', '--config', config, '--out', out], {
        cwd: ROOT,
        env: { ...process.env, CI: '1', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // its own process group, so an interrupted bench takes the stdio sellers down too
      }),
      true,
    );
    let tail = '';
    const keep = (c) => (tail = (tail + c).slice(-2000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => resolve({ code: null, ms: performance.now() - t0, report: null, tail: String(err) }));
    child.on('exit', (code) => resolve({ code, ms: performance.now() - t0, report: join(out, 'report.json'), tail }));
  });
}

const TIMEOUT_WORDS = /no answer within|did not answer|timed out|\btimeout\b|took longer than/i;

/** What a report says about timeouts: the agents reachable, and one line per timeout it tells of. */
function timeoutsIn(reportFile) {
  if (!reportFile || !existsSync(reportFile)) return null;
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const found = [];
  let reachable = 0; // agents whose initialize answered
  for (const a of report.agents) {
    if (a.reachable) reachable++;
    else {
      const why = a.down?.detail ?? a.incomplete ?? 'initialize did not answer';
      const stderr = a.stderrTail ? `; its stderr ends: ${a.stderrTail.trim().split('\n').slice(-2).join(' | ')}` : '';
      found.push(`${a.name}: unreachable (${a.down?.cause ?? 'no cause'}) after ${a.durationMs ?? '?'} ms: ${why}${stderr}`);
    }
    if (a.reachable && a.down?.cause === 'timeout') found.push(`${a.name}: down (timeout): ${a.down.detail}`);
    if (a.aborted && TIMEOUT_WORDS.test(a.aborted)) found.push(`${a.name}: session aborted: ${a.aborted}`);
    if (a.reachable && a.incomplete && TIMEOUT_WORDS.test(a.incomplete)) found.push(`${a.name}: incomplete: ${a.incomplete}`);
    if (!a.reachable) continue; // every outcome of an unreachable agent repeats why
    for (const o of a.outcomes ?? []) {
      if (o.status !== 'fail' && o.status !== 'warn' && o.status !== 'untested') continue;
      const text = [o.message, o.found].filter(Boolean).join(' · ');
      if (TIMEOUT_WORDS.test(text)) found.push(`${a.name}: ${o.status} ${o.check} › ${o.tool}: ${text}`);
    }
  }
  const lines = new Map();
  for (const line of found) lines.set(line, (lines.get(line) ?? 0) + 1);
  return {
    agents: report.agents.length,
    reachable,
    timeouts: found.length,
    lines: [...lines].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line)),
    cutShort: report.cutShort,
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(
  `adcp-conformance timeouts under load · ${CLI} · ${cpus().length} CPUs · Node ${process.versions.node} · load ${load()}\n` +
    `${ROUNDS} round(s) × ${RUNS} runs side by side, ${BURNERS} CPU burners, per run ${HTTP_AGENTS} HTTP + ${STDIO_AGENTS} stdio ` +
    `sandbox agents, connect timeout ${CONNECT_MS} ms; harness and burners at nice 10, HTTP sellers at nice 0, ` +
    `stdio sellers at nice ${PRIVILEGED ? '0' : '10 (not root: cannot raise them)'}`,
);

const urls = await Promise.all(Array.from({ length: RUNS }, startSeller));
const configs = urls.map((url, slot) => configFor(slot, url));
for (let i = 0; i < BURNERS; i++) track(spawn(NICE[0], [...NICE.slice(1), process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }));

let runsWithTimeouts = 0;
let timeouts = 0;
for (let round = 1; round <= ROUNDS; round++) {
  const outs = configs.map((_, slot) => join(work, `out-${round}-${slot}`));
  outs.forEach((o) => mkdirSync(o, { recursive: true }));
  const results = await Promise.all(configs.map((config, slot) => harnessRun(config, outs[slot])));
  console.log(`\nround ${round} (load ${load()})`);
  results.forEach((r, slot) => {
    const seen = timeoutsIn(r.report);
    if (!seen) {
      runsWithTimeouts++;
      console.log(`  run ${slot + 1}: exit ${r.code}, ${(r.ms / 1000).toFixed(1)} s, no report.json\n${r.tail.replace(/^/gm, '    | ')}`);
      return;
    }
    if (seen.timeouts) runsWithTimeouts++;
    timeouts += seen.timeouts;
    console.log(
      `  run ${slot + 1}: exit ${r.code}, ${(r.ms / 1000).toFixed(1)} s, reachable ${seen.reachable}/${seen.agents}, ` +
        `timeouts ${seen.timeouts}${seen.cutShort ? `, cut short: ${seen.cutShort}` : ''}`,
    );
    for (const line of seen.lines) console.log(`    - ${line}`);
  });
}
stopAll();
console.log(
  `\n${runsWithTimeouts} of ${ROUNDS * RUNS} runs reported a timeout or wrote no report (${timeouts} timeout lines in all); load at the end ${load()}`,
);
