// Judging one agent in a worker thread under a time and memory budget. Seller-controlled schemas and
// answers run there (Ajv compiles a seller's outputSchema into code and runs its patterns on the
// seller's data): a validation that never ends, or one that eats the heap, costs a terminated worker —
// the agent is judged again without that step, which becomes its finding, or the result is `ok:false`
// with what was running — never the run, and never another agent's verdicts.
//
// Budgets: the worker's start and our own preparation (the AdCP schema tree, its response schemas
// compiled) have a generous bound of their own (`prepareMs`); the seller's budget (`timeMs`) starts when
// judging starts. Memory is the worker heap (`resourceLimits`). A worker that judged an agent cleanly is
// kept for the next one (loading the modules takes about a second); a worker that failed is never reused.
import { Worker } from 'node:worker_threads';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentCapture } from '../../record/exchange.ts';
import type { Outcome } from '../../checks/check.ts';
import type { LayerTarget } from '../../extract/layer.ts';
import { catalogIds } from '../../checks/catalog-files.ts';
import type { SchemaSource, SchemaSourceSpec } from '../../schemas/source.ts';
import { describeSchemaStep } from '../../schemas/schema-step.ts';
import type { Blocked, JudgeJob, WorkerMessage } from './judge-worker.ts';
import { captureParts, partsBuffers, partsLength, type CaptureParts } from './capture-parts.ts';
import { PROGRESS_BYTES, readRunning, type Running } from './judge-progress.ts';

export interface JudgeBudget {
  /** Wall time for judging one agent (schema compilation included), in ms. */
  timeMs: number;
  /** Heap of the judge worker, in MB (`resourceLimits.maxOldGenerationSizeMb`). */
  memoryMb: number;
  /** Bound on starting the worker and preparing our own schemas (not the seller's budget). */
  prepareMs?: number;
}

export const DEFAULT_JUDGE_BUDGET: Readonly<Required<JudgeBudget>> = Object.freeze({ timeMs: 5_000, memoryMb: 512, prepareMs: 120_000 });

export interface SandboxOptions {
  schemaSource: SchemaSource;
  /** Which checks run (as judge.ts's `select`, or the ids themselves); all when absent. */
  select?: ((checkId: string) => boolean) | readonly string[];
  budget?: Partial<JudgeBudget>;
  /** Stop at once (Ctrl-C): the worker is terminated and the result says so. */
  signal?: AbortSignal;
  /** Keep the worker for the next agent when this one was judged cleanly (default true). */
  reuse?: boolean;
  /** How many times an agent is judged again without the step that ran past the budget (default 2). */
  retries?: number;
}

export const DEFAULT_RETRIES = 2;

export type SandboxResult =
  | {
      ok: true;
      outcomes: Outcome[];
      adcpVersion: { version: string; reason: string } | null;
      notes: string[];
      /** The ids of the catalog's state rules (session-facts.ts stateRuleIds), as the worker loaded it. */
      stateRules: string[];
      /** The structured-content layer's branch counts of the capture (run-checks.ts layerCounts). */
      layers: Record<LayerTarget, number>;
      /** The worker's heap when judging ended, in MB (for measurements; the worker may hold earlier agents' caches). */
      heapUsedMb: number;
    }
  | { ok: false; reason: string };

// ---------------------------------------------------------------------------------------------------------
// Starting a worker

const HERE = import.meta.url;
/** .ts when run from source (tsx, vitest), .js when compiled. */
const FROM_SOURCE = extname(fileURLToPath(HERE)) === '.ts';
const WORKER_URL = new URL(FROM_SOURCE ? './judge-worker.ts' : './judge-worker.js', HERE);
/**
 * Where the bundled CLI (dist/cli-bundle/, scripts/build.mjs) puts the URL of its own judge worker entry,
 * so that the worker runs bundled too. Read when a worker starts: the bundle's entry sets it after its
 * imports, this module among them, have run.
 */
export const BUNDLED_JUDGE_WORKER = Symbol.for('adcp-conformance.bundled-judge-worker');
const bundledWorker = (): unknown => (globalThis as Record<symbol, unknown>)[BUNDLED_JUDGE_WORKER];

/**
 * The worker's young generation (V8's semi-spaces), in MB. Left to itself it grew with the heap limit (up
 * to 64 MB for the 512 MB default), and a young generation is resident memory the process keeps for the
 * worker's lifetime: `npm start` peaked at ~300 MiB against a bound of 250 (bench/README.md). The worker's
 * garbage is mostly short-lived (a capture parsed, outcomes built and posted), which a small young
 * generation collects as cheaply; bench/judging.ts measured no slowdown at 8 against 16 and 64 (the 26.8 MB
 * capture parsed in 0.29–0.43 s against 0.34–0.43 and 0.37–0.47 s; the error-cap and 2000-schema cases
 * alike), while `npm start` peaks at ~229 MiB at 8, ~237 at 16 and ~245 at 64 (with the precompiled
 * validators; ~241 / 261 / 299 MiB without them).
 */
const YOUNG_GENERATION_MB = 8;

function startWorker(memoryMb: number): Worker {
  const resourceLimits = {
    maxOldGenerationSizeMb: memoryMb,
    maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
  };
  const bundled = bundledWorker();
  if (typeof bundled === 'string') return new Worker(new URL(bundled), { resourceLimits });
  if (!FROM_SOURCE) return new Worker(WORKER_URL, { resourceLimits });
  // From source the worker needs tsx's loader. `--import tsx` in execArgv does not reach a worker's entry
  // module on Node 20, so the worker registers tsx itself before importing the entry (vitest and
  // `node bin/adcp-conformance.js` alike).
  // tsx is resolved from here, not from the working directory (the run may start anywhere).
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

// ---------------------------------------------------------------------------------------------------------
// Idle workers kept between agents, by memory limit (a worker's limit is fixed at start).

/** A capture this large (its JSON) leaves its worker ended, not idle (see the 'done' message below). */
export const LARGE_CAPTURE_BYTES = 8 * 1024 * 1024;

const idle = new Map<number, Worker[]>();
let nextJob = 1;

const ignore = (): void => {};

function takeIdle(memoryMb: number): Worker | undefined {
  const w = idle.get(memoryMb)?.pop();
  if (!w) return undefined;
  w.off('error', ignore);
  w.removeAllListeners('exit');
  w.ref();
  return w;
}

function keepIdle(memoryMb: number, worker: Worker): void {
  worker.unref(); // an idle judge never keeps the process alive
  const list = idle.get(memoryMb) ?? [];
  list.push(worker);
  idle.set(memoryMb, list);
  // An idle worker that dies leaves the pool quietly (an 'error' with no listener would throw here).
  worker.on('error', ignore);
  worker.once('exit', () => {
    const at = list.indexOf(worker);
    if (at >= 0) list.splice(at, 1);
  });
}

/** How many judge workers wait idle (tests). */
export function idleJudgeWorkers(): number {
  return [...idle.values()].reduce((n, list) => n + list.length, 0);
}

/** Terminate the idle judge workers (end of a run; tests). */
export async function closeJudgeSandboxes(): Promise<void> {
  const all = [...idle.values()].flat();
  idle.clear();
  await Promise.all(all.map((w) => w.terminate()));
}

// ---------------------------------------------------------------------------------------------------------

function selectedIds(select: SandboxOptions['select']): string[] | null {
  if (select === undefined) return null;
  if (typeof select !== 'function') return [...select];
  return catalogIds().filter((id) => select(id));
}

const PREPARING = 'preparing (starting the worker, reading the capture, loading the AdCP schemas)';

function runningText(r: Running): string {
  const parts: string[] = [];
  if (r.check) parts.push(`running ${r.check.check} on ${r.check.subject}`);
  if (r.schema) parts.push(describeSchemaStep(r.schema));
  return parts.length ? parts.join(': ') : 'starting to judge';
}

function overTimeReason(budgetMs: number, r: Running): string {
  const s = r.schema;
  if (s && s.schema === 'outputSchema') {
    const verb = s.action === 'compile' ? 'compile' : 'validate';
    const why = s.patterns ? `: ${s.patterns} (on the backtracking regex engine)` : '';
    const during = r.check ? `, during ${r.check.check} on ${r.check.subject}` : '';
    return `your outputSchema of ${s.tool} took longer than ${budgetMs} ms to ${verb}${why}; judging was stopped${during}`;
  }
  return `judging took longer than its budget of ${budgetMs} ms and was stopped while ${runningText(r)}`;
}

type Attempt =
  | Extract<SandboxResult, { ok: true }>
  | {
      ok: false;
      reason: string;
      /** Set when the attempt was stopped in a step that can be left out of the next attempt. */
      block?: Blocked;
    };

/** What to leave out of the next attempt after a step ran past the time (or memory) budget. */
function blockFor(r: Running, limit: string): Blocked | undefined {
  const s = r.schema;
  if (s) {
    const what =
      s.schema === 'outputSchema'
        ? `your outputSchema of ${s.tool} took ${limit} to ${s.action}${s.patterns ? `: ${s.patterns} (on the backtracking regex engine)` : ''}`
        : `validating ${s.tool} against the AdCP schema ${s.schema} took ${limit}; not verified`;
    return { kind: 'schema', action: s.action, tool: s.tool, schema: s.schema, reason: what };
  }
  if (r.check)
    return {
      kind: 'check',
      check: r.check.check,
      subject: r.check.subject,
      reason: `the check took ${limit} on ${r.check.subject} and was stopped`,
    };
  return undefined;
}

interface AttemptInput {
  bytes: CaptureParts;
  source: SchemaSourceSpec;
  checks: string[] | null;
  blocked: Blocked[];
  budget: Required<JudgeBudget>;
  opts: SandboxOptions;
}

/** One worker, one job: resolves with the outcomes, or why and where it was stopped. */
function attempt({ bytes, source, checks, blocked, budget, opts }: AttemptInput): Promise<Attempt> {
  const large = partsLength(bytes) >= LARGE_CAPTURE_BYTES;
  const reused = opts.reuse === false ? undefined : takeIdle(budget.memoryMb);
  const worker = reused ?? startWorker(budget.memoryMb);
  const id = nextJob++;

  return new Promise<Attempt>((resolve) => {
    // What the worker is running: it writes each step here (judge-progress.ts); read only when needed.
    const progress = new SharedArrayBuffer(PROGRESS_BYTES);
    const running = (): Running => readRunning(progress);
    let phase: 'start' | 'prepare' | 'judge' = reused ? 'prepare' : 'start';
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    /** The seller's clock: time spent judging so far, and since when it runs (undefined while stopped). */
    let spent = 0;
    let since: number | undefined;

    const finish = (result: Attempt, keep: boolean): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      opts.signal?.removeEventListener('abort', onAbort);
      if (keep && opts.reuse !== false) keepIdle(budget.memoryMb, worker);
      else {
        worker.on('error', ignore); // a late error from a worker being torn down is not ours to report
        void worker.terminate();
      }
      resolve(result);
    };
    const fail = (reason: string, block?: Blocked): void => finish(block ? { ok: false, reason, block } : { ok: false, reason }, false);
    const where = (): string => (phase === 'judge' ? runningText(running()) : PREPARING);
    const overTime = (): void => {
      const now = running();
      fail(overTimeReason(budget.timeMs, now), blockFor(now, `longer than ${budget.timeMs} ms`));
    };
    const arm = (ms: number, onTimeout: () => void): void => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(onTimeout, ms);
    };

    const send = (): void => {
      // Transferred, not copied: one copy of a large capture's bytes at a time (a later attempt makes its own).
      const job: JudgeJob = { type: 'judge', id, capture: bytes, source, checks, blocked, progress };
      worker.postMessage(job, partsBuffers(bytes));
      phase = 'prepare';
      arm(budget.prepareMs, () =>
        fail(`preparing to judge took longer than ${budget.prepareMs} ms (loading the AdCP schemas; not the seller's budget)`),
      );
    };

    function onMessage(m: WorkerMessage): void {
      switch (m.type) {
        case 'ready':
          if (phase === 'start') send();
          return;
        case 'phase':
          if (m.id !== id) return;
          if (m.phase === 'judge') {
            phase = 'judge';
            since = performance.now();
            arm(budget.timeMs, overTime);
          }
          return;
        case 'own-work':
          if (m.id !== id || phase !== 'judge') return;
          if (m.running && since !== undefined) {
            spent += performance.now() - since;
            since = undefined;
            arm(budget.prepareMs, () => fail(`${m.what} took longer than ${budget.prepareMs} ms (our own work, not the seller's budget)`));
          } else if (!m.running && since === undefined) {
            since = performance.now();
            arm(Math.max(0, budget.timeMs - spent), overTime);
          }
          return;
        case 'failed':
          if (m.id === id) fail(`judging failed: ${m.reason}`);
          return;
        case 'done': {
          if (m.id !== id) return;
          // A worker that ends a job holding most of its heap is not given another agent; nor is one that
          // judged a large capture: the heap it grew to stays with the thread (~170 MiB for 24 MB of answers,
          // the run's peak when re-verification or the next agent is judged beside it), a new one costs ~0.5 s.
          const healthy = m.heapUsedMb < budget.memoryMb / 2 && !large;
          finish(
            {
              ok: true,
              outcomes: m.outcomes,
              adcpVersion: m.adcpVersion,
              notes: m.notes,
              stateRules: m.stateRules,
              layers: m.layers,
              heapUsedMb: m.heapUsedMb,
            },
            healthy,
          );
          return;
        }
      }
    }
    function onError(err: Error): void {
      if ((err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        const block = phase === 'judge' ? blockFor(running(), `more than the ${budget.memoryMb} MB memory budget`) : undefined;
        fail(`judging used more than its memory budget of ${budget.memoryMb} MB and was stopped while ${where()}`, block);
      } else {
        fail(`the judge stopped with an error while ${where()}: ${err.message}`);
      }
    }
    function onExit(code: number): void {
      fail(`the judge worker exited (code ${code}) while ${where()}`);
    }
    function onAbort(): void {
      fail(`judging was interrupted while ${where()}`);
    }

    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (reused) send();
    else arm(budget.prepareMs, () => fail(`the judge worker did not start within ${budget.prepareMs} ms`));
  });
}

/**
 * Judge one agent (createSchemaService + judgeAgent) in a worker under `budget`. Never throws and never
 * rejects. A worker that runs past its deadline or out of memory is terminated; when it was in a step
 * that can be left out (an outputSchema's compile or validation, an AdCP validation, one check on one
 * call), the agent is judged again without it — the finding names the step (schema.output-conformance
 * fails with "your outputSchema of X took longer than N ms to validate: pattern … at …"; our own AdCP
 * validation or a check is `untested` with the reason) — at most `retries` times, each with the full
 * budget. Otherwise, or past that, the result is `{ok:false, reason}` naming what was running.
 */
export async function judgeInSandbox(capture: AgentCapture, opts: SandboxOptions): Promise<SandboxResult> {
  const budget = { ...DEFAULT_JUDGE_BUDGET, ...opts.budget };
  let checks: string[] | null;
  const handOver = (err: unknown): SandboxResult => ({
    ok: false,
    reason: `the capture could not be handed to the judge: ${err instanceof Error ? err.message : String(err)}`,
  });
  try {
    checks = selectedIds(opts.select);
  } catch (err) {
    return handOver(err);
  }
  const blocked: Blocked[] = [];
  const retries = opts.retries ?? DEFAULT_RETRIES;
  for (;;) {
    if (opts.signal?.aborted) return { ok: false, reason: 'judging was interrupted before it started' };
    // Serialized for each attempt: the last attempt's bytes were transferred to its worker.
    let bytes: CaptureParts;
    try {
      bytes = captureParts(capture);
    } catch (err) {
      return handOver(err);
    }
    const result = await attempt({ bytes, source: opts.schemaSource.spec, checks, blocked, budget, opts });
    if (result.ok) {
      const notes = blocked.map(
        (b) =>
          `judged again without ${b.kind === 'schema' ? `${b.action === 'compile' ? 'compiling' : 'validating'} ${b.tool} (${b.schema})` : `${b.check} on ${b.subject}`}: ${b.reason}`,
      );
      return { ...result, notes: [...notes, ...result.notes] };
    }
    if (!result.block || blocked.length >= retries || opts.signal?.aborted) return { ok: false, reason: result.reason };
    blocked.push(result.block);
  }
}
