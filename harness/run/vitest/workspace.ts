// The vitest side of one run: a suite file per agent (so vitest shards and JUnit groups by agent) and
// a data directory the suites read their agent's outcomes from.
// Everything lives in one fresh private work directory (mkdtemp: mode 0700, an unguessable name), never
// a predictable shared path that another local user could plant a `*.adcp.test.ts` in; it is removed at
// the end unless --keep-work. Inside it the layout is stable:
//   <work>/<list>/<key>.adcp.test.ts   the suites (vitest's root; <list> hashes the agent list + install)
//   <work>/data/<key>.json             each agent's judged test cases (+ vite's cache, vitest's raw junit)
// vitest identifies a test file by its path relative to the root, so every shard of a run sees the same
// file names (`<key>.adcp.test.ts`, hence the same split); the blobs they write name `<work>/<list>`,
// which differs per shard: --merge-reports copies the blobs into its own work directory with each
// shard's `<work>` rewritten to its own (openMergeWork).
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../options.ts';
import { ABANDONED_FILE, type SuiteFile } from './suite-data.ts';

// From source the suites are TypeScript; in the compiled build (dist/) they are plain JavaScript importing
// dist/suites/agent-suite.js, which vitest loads natively (vitest-driver.ts): nothing is transpiled.
const EXT = extname(fileURLToPath(import.meta.url)) === '.js' ? '.js' : '.ts';
export const SUITE_SUFFIX = `.adcp.test${EXT}`;
/** Prefix of every work directory (mkdtemp appends six random characters). */
export const WORK_PREFIX = 'adcp-conformance-work-';
/** The agent suite module the generated suite files import (suites/agent-suite.ts, or its compiled .js). */
export const AGENT_SUITE = resolve(fileURLToPath(import.meta.url), `../../../../suites/agent-suite${EXT}`);

export interface WorkOptions {
  /** --keep-work: leave the directory in place (and say where) for debugging. */
  keep?: boolean;
  /** Where "kept" is said (default: stderr). */
  say?: (line: string) => void;
}

export interface Workspace {
  /** The private work directory of this run (everything below is removed by dispose). */
  dir: string;
  /** The vitest root holding `<key>.adcp.test.ts` per agent, and nothing else. */
  root: string;
  /** Absolute paths of the suite files this run wrote: all vitest may run. */
  files: string[];
  dataDir: string;
  /** Agent name → key (the suite file is `<key>.adcp.test.ts`, its data `<key>.json`). */
  keys: Map<string, string>;
  writeData(agent: string, data: SuiteFile): Promise<void>;
  /**
   * The run stops before every agent's data was written: suites still waiting for theirs give up (vitest
   * cannot close while a suite is waiting). Call before closing vitest; harmless after a complete run.
   */
  abandon(): Promise<void>;
  dispose(): Promise<void>;
}

export async function createWorkspace(agentNames: readonly string[], opts: WorkOptions = {}): Promise<Workspace> {
  const keys = suiteKeys(agentNames);
  const dir = await makeWorkDir();
  try {
    const root = join(dir, listId([...keys.values()]));
    const dataDir = join(dir, 'data');
    await mkdir(root, { mode: 0o700 });
    await mkdir(dataDir, { mode: 0o700 });
    const files: string[] = [];
    for (const key of keys.values()) {
      const file = join(root, key + SUITE_SUFFIX);
      const source = `import { defineAgentSuite } from ${JSON.stringify(AGENT_SUITE)};\nawait defineAgentSuite(${JSON.stringify(key)});\n`;
      await writeFile(file, source, { flag: 'wx', mode: 0o600 });
      files.push(file);
    }
    return {
      dir,
      root,
      files,
      dataDir,
      keys,
      async writeData(agent, data) {
        const key = keys.get(agent);
        if (key === undefined) throw new Error(`no suite file for agent ${agent}`);
        // Written beside, then renamed: a suite already waiting for it (vitest starts before the agents are
        // judged) never reads half a file.
        const file = join(dataDir, `${key}.json`);
        await writeFile(`${file}.partial`, JSON.stringify(data), { mode: 0o600 });
        await rename(`${file}.partial`, file);
      },
      abandon: () => writeFile(join(dataDir, ABANDONED_FILE), '', { mode: 0o600 }).catch(() => {}),
      dispose: () => disposeWork(dir, opts),
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** What --merge-reports works in: the shards' blobs, rewritten to name this directory's suite root. */
export interface MergeWork {
  dir: string;
  /** The suite root the rewritten blobs name (an empty directory: a merge runs no test file). */
  root: string;
  /** The rewritten blobs: give this to vitest.mergeReports. */
  blobDir: string;
  /** Scratch for vite's cache and vitest's raw junit. */
  dataDir: string;
  dispose(): Promise<void>;
}

/**
 * Reads every blob in `blobDir` (UsageError when one is unreadable, none is ours, or they come from
 * different agent lists), and writes them into a fresh private work directory with each shard's suite
 * root replaced by this one's: vitest then merges them as if one run had written them all.
 */
export async function openMergeWork(blobDir: string, opts: WorkOptions = {}): Promise<MergeWork> {
  const blobs = await readBlobs(blobDir);
  const lists = new Set<string>();
  for (const { text } of blobs) for (const root of suiteRootsIn(text)) lists.add(root.list);
  if (lists.size === 0) throw new UsageError(`--merge-reports ${blobDir}: no blob report of 'adcp-conformance run --reporter blob' found`);
  if (lists.size > 1)
    throw new UsageError(
      `--merge-reports ${blobDir}: the blobs come from runs over different agent lists (or installs); shard one config, with one install path`,
    );
  const dir = await makeWorkDir();
  try {
    const root = join(dir, [...lists][0]!);
    const rewrittenDir = join(dir, 'blobs');
    const dataDir = join(dir, 'data');
    for (const d of [root, rewrittenDir, dataDir]) await mkdir(d, { mode: 0o700 });
    for (const { name, text } of blobs) {
      let out = text;
      // Longest first, so a root that prefixes another is never replaced inside it.
      const roots = suiteRootsIn(text)
        .map((r) => r.written)
        .sort((a, b) => b.length - a.length);
      for (const written of roots) out = out.split(written).join(jsonInner(root));
      await writeFile(join(rewrittenDir, name), out, { flag: 'wx', mode: 0o600 });
    }
    return { dir, root, blobDir: rewrittenDir, dataDir, dispose: () => disposeWork(dir, opts) };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

async function readBlobs(blobDir: string): Promise<Array<{ name: string; text: string }>> {
  let names: string[];
  try {
    names = await readdir(blobDir);
  } catch (err) {
    throw new UsageError(`--merge-reports ${blobDir}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const blobs: Array<{ name: string; text: string }> = [];
  for (const name of names.sort()) {
    try {
      blobs.push({ name, text: await readFile(join(blobDir, name), 'utf8') });
    } catch (err) {
      throw new UsageError(
        `--merge-reports ${blobDir}: '${name}' is not a readable blob file (${err instanceof Error ? err.message : String(err)})`,
      );
    }
  }
  return blobs;
}

/** mkdtemp under os.tmpdir(): a new directory only this user can enter (0700 even under a loose umask). */
async function makeWorkDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), WORK_PREFIX));
  await chmod(dir, 0o700);
  return dir;
}

async function disposeWork(dir: string, opts: WorkOptions): Promise<void> {
  if (opts.keep) {
    (opts.say ?? ((line) => process.stderr.write(line + '\n')))(`work files kept in ${dir} (--keep-work)`);
    return;
  }
  await rm(dir, { recursive: true, force: true });
}

/** The name of the suite root: the agent list and this install (the suite module's path). */
function listId(keys: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify([AGENT_SUITE, keys]))
    .digest('hex')
    .slice(0, 16);
}

/** A string as it appears inside a JSON string literal. */
function jsonInner(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** A file-safe, unique key per agent name, stable for the same list of names. */
export function suiteKeys(names: readonly string[]): Map<string, string> {
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    if (keys.has(name)) continue;
    const slug =
      name
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^[-.]+|-+$/g, '')
        .slice(0, 60) || 'agent';
    let key = slug;
    for (let n = 2; taken.has(key); n++) key = `${slug}-${n}`;
    taken.add(key);
    keys.set(name, key);
  }
  return keys;
}

/** The key of a suite file path (`/tmp/…/reference-http.adcp.test.ts` → `reference-http`). */
export function keyOfSuiteFile(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return /\.adcp\.test\.[jt]s$/.test(base) ? base.slice(0, -SUITE_SUFFIX.length) : base;
}

/**
 * The suite roots named in a blob report (vitest's blob is serialized JSON; the suite file paths appear
 * as plain strings): `written` is the root exactly as the blob spells it (inside a JSON string), `list`
 * its agent-list id.
 */
export function suiteRootsIn(blobText: string): Array<{ written: string; list: string }> {
  const found = new Map<string, string>();
  const sep = '(?:/|\\\\\\\\)'; // '/', or '\' as JSON escapes it ('\\')
  const suffix = '\\.adcp\\.test\\.[jt]s';
  const re = new RegExp(`"([^"]*?${sep}${WORK_PREFIX}[A-Za-z0-9]{6}${sep}([0-9a-f]{16}))${sep}[^"/\\\\]*${suffix}"`, 'g');
  for (const m of blobText.matchAll(re)) if (m[1] && m[2]) found.set(m[1], m[2]);
  return [...found].map(([written, list]) => ({ written, list }));
}
