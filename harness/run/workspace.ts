// The temporary vitest root of one run: a suite file per agent (so vitest shards and JUnit groups by
// agent) and a data directory the suites read their agent's outcomes from. File names derive only
// from agent names, so every shard of a run sees the same files and vitest's shard split agrees.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentSuiteData } from './suite-data.ts';

export const SUITE_SUFFIX = '.adcp.test.ts';
const AGENT_SUITE = resolve(fileURLToPath(import.meta.url), '../../../suites/agent-suite.ts');

export interface Workspace {
  root: string;
  dataDir: string;
  /** Agent name → key (the suite file is `<key>.adcp.test.ts`, its data `<key>.json`). */
  keys: Map<string, string>;
  writeData(agent: string, data: AgentSuiteData): Promise<void>;
  dispose(): Promise<void>;
}

export async function createWorkspace(agentNames: readonly string[]): Promise<Workspace> {
  const root = await mkdtemp(join(tmpdir(), 'adcp-conformance-'));
  const dataDir = join(root, 'data');
  await mkdir(dataDir);
  const keys = suiteKeys(agentNames);
  for (const key of keys.values()) {
    const source = `import { defineAgentSuite } from ${JSON.stringify(AGENT_SUITE)};\ndefineAgentSuite(${JSON.stringify(key)});\n`;
    await writeFile(join(root, key + SUITE_SUFFIX), source);
  }
  return {
    root,
    dataDir,
    keys,
    async writeData(agent, data) {
      const key = keys.get(agent);
      if (key === undefined) throw new Error(`no suite file for agent ${agent}`);
      await writeFile(join(dataDir, `${key}.json`), JSON.stringify(data));
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
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
