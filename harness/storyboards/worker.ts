// The SDK's storyboard runner in a worker thread of its own. The runner and the SDK client under it
// write to the console (warnings, "[AdCP] Stripping fields …" lines) and keep module-level state
// (connection caches, probe counters); in a worker their output is captured (bounded) instead of landing
// in our terminal output, their heap is capped, and a storyboard that runs past its budget is ended by
// terminating the thread. The worker's code is plain CommonJS given inline (no build step, no loader):
// it requires `@adcp/sdk/testing`, resolved from this module, and the Ajv the SDK's schema loader uses.
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StoryboardResult, StoryboardRunOptions } from '@adcp/sdk/testing';
import { sdkSchemaLoader, VALIDATOR_CACHE_MAX_FILES, VALIDATOR_CACHE_SOURCE, validatorCacheDir } from './validator-cache.ts';

/** A storyboard as the plan lists it: enough to name every outcome it can have, even if it never runs. */
export interface PlannedStoryboard {
  id: string;
  title: string;
  category: string;
  bundle: { kind: 'universal' | 'protocol' | 'specialism'; id: string };
  requiredTools: string[];
  phases: Array<{
    id: string;
    optional: boolean;
    steps: Array<{ id: string; task: string; expectError: boolean; negativePath?: string; checks: string[] }>;
  }>;
}

export interface Plan {
  corpusVersion: string;
  /** The tasks the SDK treats as mutating (they carry an idempotency_key). */
  mutatingTasks: string[];
  storyboards: PlannedStoryboard[];
  /** Names in the selection that match no bundle or storyboard. */
  unknown: string[];
}

export type Selection = 'universal' | 'all' | string | readonly string[];

/** Heap cap of the runner thread (a hostile answer can no longer reach it unbounded; this is the backstop). */
export const WORKER_HEAP_MB = 512;
/** Console output of the runner kept for diagnostics, in characters. */
const OUTPUT_TAIL_CHARS = 8192;

// The worker: `plan` resolves a selection into storyboards (bundles by id: `universal`, `media-buy`,
// `sales-guaranteed` …; or storyboard ids), `run` runs one storyboard against a URL and posts its result.
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
${VALIDATOR_CACHE_SOURCE}
// The SDK's validators through the cache (validator-cache.ts), installed before the SDK loads; should that
// fail, the SDK compiles them as it always does.
try { installValidatorCache(workerData.validatorCache); } catch {}
const sdk = require(workerData.sdkTesting);
const idempotency = require(workerData.sdkIdempotency);
const quiet = () => {};
if (typeof sdk.setAgentTesterLogger === 'function') sdk.setAgentTesterLogger({ info: quiet, warn: quiet, error: quiet, debug: quiet });

function describe(sb, bundle) {
  return {
    id: sb.id, title: String(sb.title ?? ''), category: String(sb.category ?? ''), bundle,
    requiredTools: Array.isArray(sb.required_tools) ? sb.required_tools.map(String) : [],
    phases: (sb.phases ?? []).map((p) => ({
      id: String(p.id), optional: p.optional === true,
      steps: (p.steps ?? []).map((s) => ({
        id: String(s.id), task: String(s.task ?? ''), expectError: s.expect_error === true,
        ...(typeof s.negative_path === 'string' ? { negativePath: s.negative_path } : {}),
        checks: (s.validations ?? []).map((v) => String(v.check)),
      })),
    })),
  };
}

// Each bundle's YAML parsed once per thread (the SDK parses it again at every call): a plan and the runs
// after it read the same parse, and a storyboard named by id is looked up bundle by bundle, in corpus
// order, only as far as its first occurrence (the whole corpus took ~0.5 s to parse, twice per agent).
const parsed = new Map();
function storyboardsOf(b) {
  let list = parsed.get(b.path);
  if (!list) { list = sdk.loadBundleStoryboards(b); parsed.set(b.path, list); }
  return list;
}

let bundles;
function storyboard(id) {
  bundles ??= sdk.listBundles();
  for (const b of bundles) { const sb = storyboardsOf(b).find((s) => s.id === id); if (sb) return { sb, bundle: b }; }
  return undefined;
}

function plan(selection) {
  const index = sdk.loadComplianceIndex();
  bundles ??= sdk.listBundles();
  const names = Array.isArray(selection) ? selection : [selection];
  const chosen = new Map();
  const unknown = [];
  const addBundle = (b) => { for (const sb of storyboardsOf(b)) if (!chosen.has(sb.id)) chosen.set(sb.id, describe(sb, { kind: b.kind, id: b.id })); };
  for (const name of names) {
    if (name === 'all') { bundles.forEach(addBundle); continue; }
    if (name === 'universal') { bundles.filter((b) => b.kind === 'universal').forEach(addBundle); continue; }
    const bundle = bundles.find((b) => b.id === name);
    if (bundle) { addBundle(bundle); continue; }
    const found = storyboard(name);
    if (!found) unknown.push(name);
    else if (!chosen.has(name)) chosen.set(name, describe(found.sb, { kind: found.bundle.kind, id: found.bundle.id }));
  }
  return { corpusVersion: String(index.adcp_version), mutatingTasks: [...idempotency.MUTATING_TASKS].map(String), storyboards: [...chosen.values()], unknown };
}

parentPort.on('message', async (msg) => {
  try {
    if (msg.type === 'plan') return parentPort.postMessage({ type: 'plan', plan: plan(msg.selection) });
    if (msg.type === 'run') {
      const sb = storyboard(msg.id)?.sb;
      if (!sb) return parentPort.postMessage({ type: 'error', id: msg.id, message: 'no such storyboard in the corpus' });
      const result = await sdk.runStoryboard(msg.url, sb, msg.options);
      return parentPort.postMessage({ type: 'result', id: msg.id, result: JSON.parse(JSON.stringify(result)) });
    }
  } catch (err) {
    parentPort.postMessage({ type: 'error', id: msg.id, message: err && err.message ? String(err.message) : String(err) });
  }
});
`;

type Reply =
  { type: 'plan'; plan: Plan } | { type: 'result'; id: string; result: StoryboardResult } | { type: 'error'; id?: string; message: string };

export interface RunnerWorker {
  plan(selection: Selection): Promise<Plan>;
  /** Run one storyboard; rejects with an Error when the worker failed, resolves `undefined` at the timeout (the worker is then dead). */
  run(id: string, url: string, options: StoryboardRunOptions, timeoutMs: number): Promise<StoryboardResult | undefined>;
  /** The last console output of the runner (bounded). */
  output(): string;
  terminate(): Promise<void>;
}

export function startRunnerWorker(env: Record<string, string> = {}): RunnerWorker {
  const resolve = createRequire(import.meta.url).resolve;
  const sdkTesting = resolve('@adcp/sdk/testing');
  // Not an exported subpath: the SDK's own list of mutating tasks, next to its main entry.
  const sdkIdempotency = path.join(path.dirname(resolve('@adcp/sdk')), 'utils', 'idempotency.js');
  const validatorCache = {
    loader: sdkSchemaLoader(),
    dir: validatorCacheDir({ ...process.env, ...env }),
    maxFiles: VALIDATOR_CACHE_MAX_FILES,
  };
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { sdkTesting, sdkIdempotency, validatorCache },
    stdout: true,
    stderr: true,
    env: { ...process.env, ...env },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  worker.unref();
  let tail = '';
  const keep = (chunk: Buffer | string) => {
    tail = (tail + String(chunk)).slice(-OUTPUT_TAIL_CHARS);
  };
  worker.stdout.on('data', keep);
  worker.stderr.on('data', keep);
  let dead: Error | undefined;
  const waiters = new Set<(r: Reply | Error) => void>();
  worker.on('message', (m: Reply) => {
    for (const w of [...waiters]) w(m);
  });
  const die = (err: Error) => {
    dead ??= err;
    for (const w of [...waiters]) w(err);
  };
  worker.on('error', die);
  worker.on('exit', (code) => die(new Error(`the storyboard runner thread exited (code ${code})`)));

  const ask = <T>(message: unknown, accept: (r: Reply) => T | undefined, timeoutMs: number): Promise<T | undefined> => {
    if (dead) return Promise.reject(dead);
    return new Promise<T | undefined>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        void worker.terminate();
        resolve(undefined);
      }, timeoutMs);
      const waiter = (r: Reply | Error) => {
        if (r instanceof Error) {
          clearTimeout(timer);
          waiters.delete(waiter);
          return reject(r);
        }
        const value = accept(r);
        if (value === undefined) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve(value);
      };
      waiters.add(waiter);
      worker.postMessage(message);
    });
  };

  return {
    async plan(selection) {
      const plan = await ask(
        { type: 'plan', selection },
        (r) => (r.type === 'plan' ? r.plan : r.type === 'error' && r.id === undefined ? new Error(r.message) : undefined),
        60_000,
      );
      if (plan instanceof Error) throw plan;
      if (!plan) throw new Error('the storyboard runner thread did not list the corpus within 60 s');
      return plan;
    },
    async run(id, url, options, timeoutMs) {
      const got = await ask(
        { type: 'run', id, url, options },
        (r) => (r.type === 'result' && r.id === id ? r.result : r.type === 'error' && r.id === id ? new Error(r.message) : undefined),
        timeoutMs,
      );
      if (got instanceof Error) throw got;
      return got;
    },
    output: () => tail,
    terminate: async () => {
      await worker.terminate().catch(() => 0);
    },
  };
}
