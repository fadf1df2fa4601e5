// The vitest side of one run: a suite file per agent (so vitest shards and JUnit groups by agent) and
// a data directory the suites read their agent's outcomes from.
// Suite files live in a root derived only from the agent list (and this install): vitest identifies a
// test file by its path relative to the root, so every shard of a run, and the --merge-reports that
// joins them, must see the same root and the same file names. Their content never changes for a given
// root, so concurrent runs can share it; the per-run data lives in a private temporary directory.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentSuiteData } from './suite-data.ts';

export const SUITE_SUFFIX = '.adcp.test.ts';
export const SUITES_DIR = 'adcp-conformance-suites';
const AGENT_SUITE = resolve(fileURLToPath(import.meta.url), '../../../suites/agent-suite.ts');

export interface Workspace {
  /** The vitest root holding `<key>.adcp.test.ts` per agent. */
  root: string;
  dataDir: string;
  /** Agent name → key (the suite file is `<key>.adcp.test.ts`, its data `<key>.json`). */
  keys: Map<string, string>;
  writeData(agent: string, data: AgentSuiteData): Promise<void>;
  dispose(): Promise<void>;
}

export async function createWorkspace(agentNames: readonly string[]): Promise<Workspace> {
  const keys = suiteKeys(agentNames);
  const id = createHash('sha256').update(JSON.stringify([AGENT_SUITE, [...keys.values()]])).digest('hex').slice(0, 16);
  const root = join(tmpdir(), SUITES_DIR, id);
  await mkdir(root, { recursive: true });
  for (const key of keys.values()) {
    const source = `import { defineAgentSuite } from ${JSON.stringify(AGENT_SUITE)};\ndefineAgentSuite(${JSON.stringify(key)});\n`;
    await writeIfChanged(join(root, key + SUITE_SUFFIX), source);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'adcp-conformance-data-'));
  return {
    root,
    dataDir,
    keys,
    async writeData(agent, data) {
      const key = keys.get(agent);
      if (key === undefined) throw new Error(`no suite file for agent ${agent}`);
      await writeFile(join(dataDir, `${key}.json`), JSON.stringify(data));
    },
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/** Atomic (write + rename), and a no-op when another run already wrote the same file. */
async function writeIfChanged(file: string, content: string): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === content) return;
  const temp = `${file}.${randomUUID()}.tmp`;
  await writeFile(temp, content);
  await rename(temp, file);
}

/** A file-safe, unique key per agent name, stable for the same list of names. */
export function suiteKeys(names: readonly string[]): Map<string, string> {
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    if (keys.has(name)) continue;
    const slug = name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 60) || 'agent';
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
  return base.endsWith(SUITE_SUFFIX) ? base.slice(0, -SUITE_SUFFIX.length) : base;
}

/**
 * The suite roots named in blob reports (vitest's blob is serialized JSON; the suite file paths
 * appear as plain strings). A merge must run with the root the shards ran with.
 */
export function suiteRootsIn(blobText: string): Set<string> {
  const roots = new Set<string>();
  const re = new RegExp(`"([^"]*?[\\\\/]${SUITES_DIR}[\\\\/][0-9a-f]{16})[\\\\/][^"\\\\/]*${SUITE_SUFFIX.replace(/\./g, '\\.')}"`, 'g');
  for (const m of blobText.matchAll(re)) if (m[1]) roots.add(m[1]);
  return roots;
}
