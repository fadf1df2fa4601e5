// The hostile battery's harness: run the CLI as a user would (a child process, a config file, a secret
// in the environment) against hostile sellers of our own (servers/hostile-stdio.mjs, hostile-http.mjs),
// measure its wall time and peak memory, and check what every hostile run must show whatever the
// behaviour: bounded time and memory, every report written and valid, no control or bidi character
// and no secret anywhere in what it printed or wrote, no connection to a host the config did not name,
// and no seller process left behind. Each behaviour is one agent (named after it); a family of
// behaviours that cannot disturb one another shares one run (which also shows one agent's hostility is
// that agent's alone). HOSTILE_SOLO=1 runs every behaviour in a run of its own, to tell them apart.
// A run of one agent uses the CLI's defaults, re-verification of failing calls in a fresh session included.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { expect } from 'vitest';
import { canValidateJunit, ROOT, tempDirs, validateJunit } from '../run/cli.helpers.ts';
import { reportSchemaErrors } from '../run/nightly.helpers.ts';

export const STDIO_SELLER = fileURLToPath(new URL('./servers/hostile-stdio.mjs', import.meta.url));
export const HTTP_SELLER = fileURLToPath(new URL('./servers/hostile-http.mjs', import.meta.url));

/** The secret the config passes to every seller (header or env) and every seller echoes back. */
export const TOKEN = 'hostile_tok_7Qx9_Zr2mK4vW8pL';
/**
 * The short timeouts of a hostile run (ms), and the slack a whole run gets past the agent timeout: the
 * CLI's start (tsx, vitest, the judge worker: a few seconds idle), judging and reporting, on a loaded
 * 2-core machine. A run that hangs in judging overruns it by minutes; the agent's own session is held
 * to AGENT_SLACK_MS. connect leaves room for a seller's node process to start on a busy machine.
 */
export const TIMEOUTS = { connect: 5000, call: 2000, agent: 10_000 } as const;
export const WALL_SLACK_MS = 20_000;
/** The harness's own capture may overrun an agent's timeout by this much at most. */
export const AGENT_SLACK_MS = 1500;
export const MAX_RSS_MIB = 600;
/** Bytes the CLI may print (stdout + stderr) in a hostile run: what a seller sends must not flood it. */
export const MAX_OUTPUT_BYTES = 2 * 1024 * 1024;
/** A run still going this long past its agent timeout has hung: it is killed and the test fails. */
const HARD_KILL_MS = 60_000;

/** Characters that can forge or hide terminal or report text (our own output has none of them). */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
/** An XML character reference to one of them (a JUnit viewer would decode it). */
const UNSAFE_XML_REF = /&#(x[0-9a-fA-F]+|[0-9]+);/g;

export interface AgentSpec {
  /** The behaviour's name: the seller's argument (stdio) or path (HTTP), and the agent's name. */
  behaviour: string;
  transport: 'stdio' | 'http';
  probes?: Array<{ tool: string; arguments: Record<string, unknown> }>;
  timeouts?: { connect?: number; call?: number; agent?: number };
  maxBytes?: number;
}

export const stdio = (behaviour: string, extra: Omit<AgentSpec, 'behaviour' | 'transport'> = {}): AgentSpec => ({
  behaviour,
  transport: 'stdio',
  ...extra,
});
export const http = (behaviour: string, extra: Omit<AgentSpec, 'behaviour' | 'transport'> = {}): AgentSpec => ({
  behaviour,
  transport: 'http',
  ...extra,
});

export interface ReportOutcome {
  check: string;
  tool: string;
  status: string;
  message: string;
  expected?: string;
  found?: string;
  evidence?: { answer?: string; stderr?: string; diagnosis?: string };
}
export interface ReportAgent {
  name: string;
  verdict: string;
  reachable: boolean;
  incomplete: string | null;
  aborted: string | null;
  durationMs: number | null;
  stderrTail?: string;
  outcomes: ReportOutcome[];
}

export interface HostileRun {
  specs: AgentSpec[];
  dir: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the run had to be killed (it hung). */
  hung: boolean;
  wallMs: number;
  /** Peak resident memory of the CLI process (and of any process it waited for), in KiB; null when unmeasured. */
  maxRssKiB: number | null;
  stdout: string;
  stderr: string;
  outputBytes: number;
  /** Every file the run wrote under its --out directory, by relative path (text). */
  files: Record<string, string>;
  /** Files among them that are not valid UTF-8. */
  notUtf8: string[];
  report: { agents: ReportAgent[]; exitCode: number; cutShort: string | null } | undefined;
  /** What each seller recorded through --seen (stdio: by behaviour; HTTP: the server's record per path). */
  seen: Record<string, Record<string, unknown>>;
  trapConnections: number;
  trapUrl: string;
  /** The largest agent timeout of the run. */
  agentMs: number;
}

const tmp = tempDirs();
/** Hostile runs at once per test file (files run one after another on a 2-core machine; each run is a CLI, its sellers and a judge worker). */
const pool = pLimit(2);
const solo = process.env['HOSTILE_SOLO'] === '1';

/** A family of behaviours: one CLI run for all (or one each under HOSTILE_SOLO=1); `of(b)` gives the run that holds `b`. */
export function family(name: string, specs: AgentSpec[], extra: { args?: string[] } = {}): { of(behaviour: string): Promise<HostileRun> } {
  const runs = new Map<string, Promise<HostileRun>>();
  let shared: Promise<HostileRun> | undefined;
  return {
    of(behaviour) {
      const spec = specs.find((s) => s.behaviour === behaviour);
      if (!spec) throw new Error(`no behaviour ${behaviour} in family ${name}`);
      // A shared run leaves out re-verification: its memory grows with the agents re-verified at once
      // (~75 MiB each, measured), which is not what a hostile seller costs. Runs of one agent keep it.
      if (!solo) return (shared ??= runHostile(name, specs, { args: ['--no-reverify', ...(extra.args ?? [])] }));
      let run = runs.get(behaviour);
      if (!run) runs.set(behaviour, (run = runHostile(`${name}-${behaviour}`, [spec], extra)));
      return run;
    },
  };
}

/** One CLI run over `specs` (one agent each), through the pool. */
export function runHostile(name: string, specs: AgentSpec[], extra: { args?: string[] } = {}): Promise<HostileRun> {
  return pool(() => execute(name, specs, extra));
}

async function execute(name: string, specs: AgentSpec[], extra: { args?: string[] }): Promise<HostileRun> {
  const dir = await tmp(`hostile-${name}`);
  const trap = await startTrap();
  const httpSeller = specs.some((s) => s.transport === 'http') ? await startHttpSeller(trap.url, join(dir, 'seen-http.json')) : undefined;
  try {
    const agents = specs.map((s) => agentConfig(s, dir, trap.url, httpSeller?.url));
    const config = join(dir, 'agents.json');
    await writeFile(config, JSON.stringify({ agents }, null, 2));
    const out = join(dir, 'out');
    const agentMs = Math.max(...specs.map((s) => s.timeouts?.agent ?? TIMEOUTS.agent));
    const cli = await runMeasured(
      ['run', '--config', config, '--out', out, '--concurrency', String(specs.length), ...(extra.args ?? [])],
      join(dir, 'rss.txt'),
      agentMs + HARD_KILL_MS,
    );
    const files: Record<string, string> = {};
    const notUtf8: string[] = [];
    if (existsSync(out)) {
      for (const f of await readdir(out, { recursive: true, withFileTypes: true })) {
        if (!f.isFile()) continue;
        const path = join(f.parentPath, f.name);
        const bytes = await readFile(path);
        const rel = path.slice(out.length + 1);
        files[rel] = bytes.toString('utf8');
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          notUtf8.push(rel);
        }
      }
    }
    let report: HostileRun['report'];
    try {
      report = files['report.json'] === undefined ? undefined : (JSON.parse(files['report.json']) as HostileRun['report']);
    } catch {
      report = undefined;
    }
    const seen: HostileRun['seen'] = {};
    for (const s of specs.filter((x) => x.transport === 'stdio')) {
      const file = join(dir, `seen-${s.behaviour}.json`);
      if (existsSync(file)) seen[s.behaviour] = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    }
    await httpSeller?.close(); // its record is complete once it stopped
    const httpSeen = join(dir, 'seen-http.json');
    if (existsSync(httpSeen)) Object.assign(seen, JSON.parse(readFileSync(httpSeen, 'utf8')) as HostileRun['seen']);
    if (process.env['HOSTILE_DEBUG']) {
      const rss = cli.maxRssKiB === null ? '?' : Math.round(cli.maxRssKiB / 1024);
      const outcomes = (report?.agents ?? []).map(
        (a) =>
          `  ${a.name} [${a.durationMs} ms]: ${a.outcomes
            .filter((o) => o.status === 'fail' || o.status === 'warn')
            .map((o) => `${o.check} ${o.status}: ${o.found ?? o.message}`.slice(0, 300))
            .join('\n    ')}`,
      );
      process.stderr.write(`[hostile] ${name}: exit ${cli.code}, ${Math.round(cli.wallMs)} ms, ${rss} MiB\n${outcomes.join('\n')}\n`);
    }
    return { specs, dir, ...cli, files, notUtf8, report, seen, trapConnections: trap.connections(), trapUrl: trap.url, agentMs };
  } finally {
    await httpSeller?.close();
    await trap.close();
  }
}

function agentConfig(s: AgentSpec, dir: string, trapUrl: string, httpUrl: string | undefined): Record<string, unknown> {
  const common = {
    name: s.behaviour,
    timeouts: { ...TIMEOUTS, ...s.timeouts },
    probes: s.probes ?? [{ tool: 'get_adcp_capabilities', arguments: {} }],
    ...(s.maxBytes !== undefined ? { maxBytes: s.maxBytes } : {}),
  };
  if (s.transport === 'http') {
    return {
      ...common,
      transport: 'http',
      url: `${httpUrl}/${encodeURIComponent(s.behaviour)}`,
      headers: { Authorization: 'Bearer ${HOSTILE_TOKEN}' },
    };
  }
  return {
    ...common,
    transport: 'stdio',
    command: process.execPath,
    args: [STDIO_SELLER, s.behaviour, `--trap=${trapUrl}`, `--seen=${join(dir, `seen-${s.behaviour}.json`)}`],
    env: { HOSTILE_TOKEN: '${HOSTILE_TOKEN}' },
  };
}

const TIME = '/usr/bin/time';
const haveTime = (() => {
  try {
    execFileSync(TIME, ['-f', '%M', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Output kept per stream; the rest is only counted. */
const KEEP_BYTES = 4 * 1024 * 1024;

/** The CLI as a child process: wall time, peak RSS (GNU time, else VmHWM polled from /proc), bounded output, killed if it hangs. */
function runMeasured(
  args: string[],
  rssFile: string,
  hardKillMs: number,
): Promise<Pick<HostileRun, 'code' | 'signal' | 'hung' | 'wallMs' | 'maxRssKiB' | 'stdout' | 'stderr' | 'outputBytes'>> {
  const cli = [join(ROOT, 'bin', 'adcp-conformance.js'), ...args];
  const [command, argv] = haveTime ? [TIME, ['-f', '%M', '-o', rssFile, process.execPath, ...cli]] : [process.execPath, cli];
  const started = performance.now();
  const child: ChildProcess = spawn(command, argv, {
    cwd: ROOT,
    env: { ...process.env, CI: '1', NO_COLOR: '1', HOSTILE_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own group: a hung run is killed whole
  });
  const kept = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  const size = { stdout: 0, stderr: 0 };
  let outputBytes = 0;
  for (const name of ['stdout', 'stderr'] as const) {
    child[name]?.on('data', (c: Buffer) => {
      outputBytes += c.length;
      if (size[name] < KEEP_BYTES) kept[name].push(c.subarray(0, KEEP_BYTES - size[name]));
      size[name] += c.length;
    });
  }
  let peakHwm = 0;
  const poll = haveTime
    ? undefined
    : setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) peakHwm = Math.max(peakHwm, Number(m[1]));
        } catch {
          /* exited */
        }
      }, 20);
  let hung = false;
  const killer = setTimeout(() => {
    hung = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, hardKillMs);
  return new Promise((done) => {
    child.on('close', (code, signal) => {
      const wallMs = performance.now() - started;
      clearTimeout(killer);
      if (poll) clearInterval(poll);
      let maxRssKiB: number | null = peakHwm || null;
      if (haveTime && existsSync(rssFile)) {
        const lines = readFileSync(rssFile, 'utf8').trim().split('\n');
        const rss = Number(lines.at(-1));
        if (Number.isFinite(rss) && rss > 0) maxRssKiB = rss;
      }
      // GNU time exits with the child's code, or prints "Command terminated by signal N" and exits 128+N.
      done({
        code,
        signal,
        hung,
        wallMs,
        maxRssKiB,
        stdout: Buffer.concat(kept.stdout).toString('utf8'),
        stderr: Buffer.concat(kept.stderr).toString('utf8'),
        outputBytes,
      });
    });
  });
}

interface Trap {
  url: string;
  connections(): number;
  close(): Promise<void>;
}

/**
 * A host the config never names (127.0.0.2 where the system routes it, else another port on 127.0.0.1):
 * it counts every connection and answers any request with a plausible 200, so a harness that follows a
 * seller there would go on talking to it.
 */
async function startTrap(): Promise<Trap> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () =>
      socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}'),
    );
  });
  const listen = (host: string) =>
    new Promise<string>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => {
        server.off('error', reject);
        resolve(host);
      });
    });
  const host = await listen('127.0.0.2').catch(() => listen('127.0.0.1'));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${host}:${port}/`,
    connections: () => count,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

interface HttpSeller {
  url: string;
  close(): Promise<void>;
}

async function startHttpSeller(trapUrl: string, seenFile: string): Promise<HttpSeller> {
  const child = spawn(process.execPath, [HTTP_SELLER, `--trap=${trapUrl}`, `--seen=${seenFile}`], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      const m = /listening (\S+)/.exec(text);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`hostile-http exited (${code}) before listening`)));
  });
  let closed: Promise<void> | undefined;
  return {
    url,
    close: () =>
      (closed ??= new Promise<void>((r) => {
        if (child.exitCode !== null || child.signalCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
      })),
  };
}

// ---------------------------------------------------------------------------------------------------
// What every hostile run must show.

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The first unsafe character of `text`, shown with a little context; null when there is none. */
export function unsafeCharIn(text: string): string | null {
  const m = UNSAFE.exec(text);
  if (m)
    return `U+${m[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 60), m.index + 20))}`;
  for (const ref of text.matchAll(UNSAFE_XML_REF)) {
    const code = ref[1]!.startsWith('x') ? parseInt(ref[1]!.slice(1), 16) : Number(ref[1]);
    if (UNSAFE.test(String.fromCodePoint(code))) return `character reference ${ref[0]}`;
  }
  return null;
}

/** Every string in a parsed JSON value (keys too). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        out.push(k);
        stack.push(item);
      }
    }
  }
  return out;
}

/**
 * (a) wall time and each agent's session bounded by its timeout, (b) peak memory and output bounded,
 * (c) every report written and valid, (d) no unsafe character and no forged line, (f) no secret
 * (while the seller provably received it), (g) nothing connected to the trap host; and no seller
 * process outlived the run.
 */
export function expectContained(run: HostileRun, opts: { maxRssMiB?: number; exitCodes?: number[] } = {}): void {
  const where = `${run.dir}: exit ${run.code}${run.hung ? ' (HUNG, killed)' : ''}\n${run.stderr.slice(-3000)}`;
  expect(run.hung, where).toBe(false);
  expect(opts.exitCodes ?? [1, 3], where).toContain(run.code);
  expect(run.stderr, where).not.toContain('internal error');

  // (a)
  expect(run.wallMs, where).toBeLessThan(run.agentMs + WALL_SLACK_MS);
  for (const a of run.report?.agents ?? []) {
    const spec = run.specs.find((s) => s.behaviour === a.name);
    const agentMs = spec?.timeouts?.agent ?? TIMEOUTS.agent;
    if (a.durationMs !== null) expect(a.durationMs, `${a.name}: its session`).toBeLessThan(agentMs + AGENT_SLACK_MS);
  }

  // (b)
  if (run.maxRssKiB !== null) expect(run.maxRssKiB / 1024, `${where}\npeak RSS MiB`).toBeLessThan(opts.maxRssMiB ?? MAX_RSS_MIB);
  expect(run.outputBytes, 'bytes the CLI printed').toBeLessThan(MAX_OUTPUT_BYTES);

  // (c)
  for (const f of ['report.json', 'junit.xml', 'summary.md']) expect(Object.keys(run.files), `${where}\n${f} written`).toContain(f);
  expect(run.report, 'report.json parses').toBeDefined();
  expect(reportSchemaErrors(run.report)).toBeNull();
  expect(run.report!.agents.map((a) => a.name).sort()).toEqual(run.specs.map((s) => s.behaviour).sort());
  if (canValidateJunit) expect(() => validateJunit(join(run.dir, 'out', 'junit.xml'))).not.toThrow();
  expect(run.notUtf8, 'report files that are not valid UTF-8').toEqual([]);

  // (d)
  const texts: Record<string, string> = { stdout: run.stdout, stderr: run.stderr };
  for (const [name, text] of Object.entries(run.files)) if (!name.startsWith('blob')) texts[name] = text;
  for (const [name, text] of Object.entries(texts)) {
    expect(unsafeCharIn(text), `${name}: an unsafe character`).toBeNull();
    expect(text, `${name}: a line forged by a seller's line break`).not.toMatch(/^\W*FORGED_LINE/m);
  }
  const reportStrings = stringsOf(run.report);
  for (const s of reportStrings) expect(unsafeCharIn(s), 'a report.json string: an unsafe character').toBeNull();

  // (f)
  for (const [name, text] of Object.entries(texts)) expect(text.includes(TOKEN), `${name}: the secret`).toBe(false);
  for (const spec of run.specs) {
    const got = run.seen[spec.behaviour];
    expect(got?.['token'], `${spec.behaviour}: the seller received the secret (else the leak test proves nothing)`).toBe(TOKEN);
  }

  // (g)
  expect(run.trapConnections, `connections to ${run.trapUrl}, a host the config never named`).toBe(0);

  // No seller process outlived the run (stdio: the seller and a grandchild in its group).
  for (const spec of run.specs.filter((s) => s.transport === 'stdio')) {
    const got = run.seen[spec.behaviour] ?? {};
    for (const key of ['pid', ...(spec.behaviour === 'detached-grandchild' ? [] : ['grandchild'])]) {
      const pid = got[key];
      if (typeof pid === 'number') expect(alive(pid), `${spec.behaviour}: ${key} ${pid} still running after the run`).toBe(false);
    }
  }
}

/** The agent of a behaviour in a run's report.json. */
export function agentOf(run: HostileRun, behaviour: string): ReportAgent {
  const a = run.report?.agents.find((x) => x.name === behaviour);
  if (!a) throw new Error(`${behaviour}: not in report.json (exit ${run.code})\n${run.stderr.slice(-2000)}`);
  return a;
}

/** (e) the check that names the problem: `check` has an outcome of `status` whose text matches `pattern`. */
export function expectFinding(
  run: HostileRun,
  behaviour: string,
  check: string,
  pattern: RegExp,
  status: 'fail' | 'warn' | 'untested' = 'fail',
): ReportOutcome {
  const a = agentOf(run, behaviour);
  const hits = a.outcomes.filter((o) => o.check === check);
  const text = (o: ReportOutcome) => [o.message, o.expected, o.found, o.evidence?.diagnosis].filter(Boolean).join(' | ');
  const match = hits.find((o) => o.status === status && pattern.test(text(o)));
  const shown = hits.map((o) => `${o.status} ${o.tool}: ${text(o)}`).join('\n') || '(no outcome of this check)';
  expect(match, `${behaviour}: ${check} ${status} matching ${pattern}; got:\n${shown}`).toBeDefined();
  return match!;
}
