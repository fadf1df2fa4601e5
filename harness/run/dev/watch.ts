// `--watch` for `run` and `probe`: run, then run again whenever a file under the watched paths changes
// or an HTTP agent comes back after a restart (its port refused connections, then accepts them again).
// Each re-run prints one compact line (when, why, verdict, counts, time) and what changed since the
// previous run (checks newly failing, fixed, or no longer verifiable), never the whole report again.
// Directories are watched one by one (fs.watch per directory, new ones picked up as they appear), with
// node_modules, VCS folders, dist/ and the run's own output directory left out.
import { watch as watchDir, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { basename, join, relative, resolve, sep } from 'node:path';
import { escapeVisible } from '../../sanitize.ts';
import type { AgentConfig } from '../../config/types.ts';
import { UsageError } from '../options.ts';

/** Quiet time after the last file event before a re-run starts (editors write in bursts). */
export const DEBOUNCE_MS = 150;
/** How often an HTTP agent's port is tried. */
export const POLL_MS = 300;
/** Directories watched at most (a watch of a huge tree is a mistake, not a dev loop). */
export const MAX_DIRECTORIES = 5000;
/** Changes listed per re-run; the rest are counted. */
const CHANGES_SHOWN = 20;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', '.vitest-reports', '.cache', 'coverage']);

/** One run's result as the loop compares it: verdict, counts and each check's status by key. */
export interface RunSnapshot {
  code: number;
  verdict: string;
  /** `agent :: check › tool` (numbered when repeated) → status. */
  statuses: Map<string, string>;
  /** A message per key for fail/warn (shown when it newly fails), with its fix hint when there is one. */
  details?: Map<string, string>;
}

export interface WatchSetup {
  /** Directories or files to watch (empty: none). */
  paths: string[];
  /** HTTP agent URLs to watch for a restart. */
  urls: string[];
  /** Paths whose changes never trigger a run (the run's own reports). */
  ignore: string[];
}

/**
 * What `--watch [PATH]` watches for these agents: PATH, else the working directory of every stdio agent;
 * and every HTTP agent's URL for a restart. A UsageError when nothing at all would be watched.
 */
export function watchSetup(path: string, agents: readonly AgentConfig[], ignore: readonly string[], cwd = process.cwd()): WatchSetup {
  const paths = path !== '' ? [resolve(cwd, path)] : [...new Set(agents.flatMap((a) => (a.transport === 'stdio' ? [a.cwd ?? cwd] : [])))];
  const urls = agents.flatMap((a) => (a.transport === 'http' ? [a.url] : []));
  if (!paths.length && !urls.length) throw new UsageError('--watch: nothing to watch (give --watch PATH)');
  return { paths, urls, ignore: ignore.map((p) => resolve(cwd, p)) };
}

/** Watches the files of a setup; `changed` gets the first changed path of a burst (debounced). */
class FileWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private timer: NodeJS.Timeout | undefined;
  private first: string | undefined;
  private closed = false;

  constructor(
    private readonly ignore: readonly string[],
    private readonly changed: (path: string) => void,
  ) {}

  async add(path: string): Promise<void> {
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new UsageError(`--watch ${path}: no such file or directory`);
    if (!info.isDirectory()) return this.watch(path, false);
    const pending = [path];
    while (pending.length && !this.closed) {
      const dir = pending.pop()!;
      if (this.watchers.has(dir) || this.ignored(dir)) continue;
      if (this.watchers.size >= MAX_DIRECTORIES)
        throw new UsageError(`--watch ${path}: more than ${MAX_DIRECTORIES} directories; watch a smaller tree`);
      this.watch(dir, true);
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) if (e.isDirectory() && !SKIPPED_DIRS.has(e.name)) pending.push(join(dir, e.name));
    }
  }

  private ignored(path: string): boolean {
    return this.ignore.some((i) => path === i || path.startsWith(i + sep));
  }

  private watch(path: string, isDir: boolean): void {
    let w: FSWatcher;
    try {
      w = watchDir(path, { persistent: true });
    } catch {
      return; // vanished meanwhile, or not watchable: nothing to report about it
    }
    w.on('error', () => {
      w.close();
      this.watchers.delete(path);
    });
    w.on('change', (_event, name) => {
      const file = isDir && name ? join(path, name.toString()) : path;
      if (this.ignored(file) || basename(file).startsWith('.#')) return;
      // A new directory is watched too (editors and builds create them).
      if (isDir)
        void stat(file)
          .then((s) => (s.isDirectory() && !SKIPPED_DIRS.has(basename(file)) ? this.add(file) : undefined))
          .catch(() => {});
      this.first ??= file;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        const first = this.first!;
        this.first = undefined;
        if (!this.closed) this.changed(first);
      }, DEBOUNCE_MS);
    });
    this.watchers.set(path, w);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}

/** Whether something accepts TCP connections at the URL's host and port. */
export function portOpen(url: string, timeoutMs = 1000): Promise<boolean> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return new Promise((done) => {
    const socket = connect({ host, port });
    const finish = (open: boolean) => {
      socket.destroy();
      done(open);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/** Polls each URL; `cameBack` when one that was refusing connections accepts them again. */
class RestartWatch {
  private timer: NodeJS.Timeout | undefined;
  private readonly down = new Set<string>();
  private closed = false;

  constructor(
    private readonly urls: readonly string[],
    private readonly cameBack: (url: string) => void,
  ) {}

  start(): void {
    const tick = async () => {
      for (const url of this.urls) {
        const open = await portOpen(url, POLL_MS);
        if (this.closed) return;
        if (!open) this.down.add(url);
        else if (this.down.delete(url)) this.cameBack(url);
      }
      if (!this.closed) this.timer = setTimeout(() => void tick(), POLL_MS);
    };
    this.timer = setTimeout(() => void tick(), POLL_MS);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }
}

export interface WatchLoopOptions {
  setup: WatchSetup;
  /** One run; `n` counts from 1. Returns its snapshot (never throws for a conformance result). */
  run: (n: number) => Promise<RunSnapshot>;
  /** Where the compact lines go. */
  say: (line: string) => void;
  signal: AbortSignal;
}

/** Runs once, then once per change until the signal aborts. Returns the last run's exit code. */
export async function watchLoop(opts: WatchLoopOptions): Promise<number> {
  const { setup, say, signal } = opts;
  let previous: RunSnapshot | undefined;
  let pending: string | undefined = 'start';
  let wake: (() => void) | undefined;
  const trigger = (why: string) => {
    pending ??= why;
    wake?.();
  };
  const files = new FileWatch(setup.ignore, (path) => trigger(`${changedPath(path, setup.paths)} changed`));
  const restarts = new RestartWatch(setup.urls, (url) => trigger(`${escapeVisible(url, 120)} is back`));
  const stopped = new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
  try {
    for (const p of setup.paths) await files.add(p);
    restarts.start();
    const what = [...setup.paths.map((p) => shortPath(p)), ...setup.urls.map((u) => `${escapeVisible(u, 120)} (restarts)`)];
    say(`watching ${what.join(', ')}; Ctrl-C to stop`);
    for (let n = 1; !signal.aborted; n++) {
      while (pending === undefined && !signal.aborted) await Promise.race([new Promise<void>((r) => (wake = r)), stopped]);
      if (signal.aborted) break;
      const why = pending!;
      pending = undefined;
      const started = performance.now();
      const snap = await opts.run(n);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      say(compactLine(n, why, snap, seconds));
      if (previous) for (const line of changesSince(previous, snap)) say(`  ${line}`);
      previous = snap;
    }
  } finally {
    files.close();
    restarts.close();
  }
  return previous?.code ?? 3;
}

/** A changed file as the user knows it: relative to the watched directory it is in. */
function changedPath(path: string, roots: readonly string[]): string {
  const root = roots.find((r) => path.startsWith(r + sep));
  return escapeVisible(root ? relative(root, path) : basename(path), 160);
}

function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return escapeVisible(rel && !rel.startsWith('..') ? rel : path, 160);
}

function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}

/** `[12:01:03] #2 (src/tools.ts changed): nonconformant · 180 pass · 1 fail · 0 warn · 2.1 s` */
export function compactLine(n: number, why: string, snap: RunSnapshot, seconds: string): string {
  const counts = new Map<string, number>();
  for (const s of snap.statuses.values()) counts.set(s, (counts.get(s) ?? 0) + 1);
  const shown = ['pass', 'fail', 'warn', 'untested'].map((s) => `${counts.get(s) ?? 0} ${s}`).join(' · ');
  return `[${clock()}] #${n} (${why}): ${snap.verdict} · ${shown} · exit ${snap.code} · ${seconds} s`;
}

/** What changed between two runs, one line per check whose status moved (bounded). */
export function changesSince(before: RunSnapshot, after: RunSnapshot): string[] {
  const lines: string[] = [];
  const bad = (s: string | undefined) => s === 'fail' || s === 'warn';
  for (const [key, now] of after.statuses) {
    const was = before.statuses.get(key);
    if (was === now) continue;
    if (bad(now))
      lines.push(`✗ now ${now}: ${key}${was ? ` (was ${was})` : ''}${after.details?.get(key) ? ` — ${after.details.get(key)}` : ''}`);
    else if (bad(was) && now === 'pass') lines.push(`✓ fixed: ${key}`);
    else if (was !== undefined) lines.push(`~ ${was} → ${now}: ${key}`);
  }
  for (const [key, was] of before.statuses) if (!after.statuses.has(key) && bad(was)) lines.push(`- no longer judged: ${key} (was ${was})`);
  if (before.verdict !== after.verdict) lines.unshift(`verdict: ${before.verdict} → ${after.verdict}`);
  if (lines.length === 0) return ['no change since the previous run'];
  return lines.length > CHANGES_SHOWN ? [...lines.slice(0, CHANGES_SHOWN), `… ${lines.length - CHANGES_SHOWN} more`] : lines;
}
