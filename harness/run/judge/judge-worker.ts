// The judge worker: one agent's judging (schema service + check engine) in a worker thread, so that a
// seller's schema or answer that makes it slow or hungry costs a terminated worker, never the run.
// Protocol (judge-sandbox.ts is the other side): `ready` once loaded; per job `phase` (prepare: our
// schemas, judge: the seller's budget), `step` before each check and each seller-controlled compile or
// validation (so a deadline can name what was running), then `done` or `failed`.
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import type { Exchange } from '../../record/exchange.ts';
import { catalog } from '../../checks/catalog.ts';
import { untested, type AgentCheck, type Check, type CheckContext, type ExchangeCheck, type Outcome } from '../../checks/check.ts';
import { judgeAgent, layerCounts, toolName } from '../../checks/engine.ts';
import type { LayerTarget } from '../../extract/layer.ts';
import { createSchemaService, schemaSourceFromSpec, type SchemaSourceSpec } from '../../schemas/index.ts';
import { progressWriter, type ProgressWriter } from './judge-progress.ts';
import { stateRuleIds } from './session-facts.ts';
import { captureFromParts, type CaptureParts } from './capture-parts.ts';

export interface JudgeJob {
  type: 'judge';
  id: number;
  /** The capture as UTF-8 JSON, in parts (judge-sandbox.ts captureParts), transferred to the worker. */
  capture: CaptureParts;
  source: SchemaSourceSpec;
  /** Check ids to run; null = all. */
  checks: string[] | null;
  /** Steps an earlier attempt ran past the budget in: not run again, reported with the reason. */
  blocked: Blocked[];
  /** Where the worker says which step it is running (judge-progress.ts), read by the sandbox only when it stops it. */
  progress: SharedArrayBuffer;
}

export type Blocked =
  | { kind: 'schema'; action: 'compile' | 'validate'; tool: string; schema: string; reason: string }
  | { kind: 'check'; check: string; subject: string; reason: string };

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'phase'; id: number; phase: 'prepare' | 'judge' }
  /** Our own work inside judging (the seller's clock stops while it runs). */
  | { type: 'own-work'; id: number; what: string; running: boolean }
  | {
      type: 'done';
      id: number;
      outcomes: Outcome[];
      adcpVersion: { version: string; reason: string } | null;
      notes: string[];
      /** The catalog's state rules (the main thread, which does not load the catalog, reports them). */
      stateRules: string[];
      /** The layer branch counts: the worker has the audit validator compiled; the main thread need not compile it. */
      layers: Record<LayerTarget, number>;
      heapUsedMb: number;
    }
  | { type: 'failed'; id: number; reason: string };

const port = parentPort;
if (!port) throw new Error('judge-worker.ts runs as a worker thread (see judge-sandbox.ts)');
const post = (m: WorkerMessage): void => port.postMessage(m);
const errorText = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

const SESSION = 'the session';

/**
 * The catalog with each judge announcing itself first (a deadline then names the check that was running)
 * and the blocked (check, subject) pairs answered `untested` with their reason instead of being run.
 */
function announced(checks: readonly Check[], blocked: readonly Blocked[], progress: ProgressWriter): Check[] {
  const step = progress.check;
  const stopped = (check: string, subject: string) =>
    blocked.find((b): b is Extract<Blocked, { kind: 'check' }> => b.kind === 'check' && b.check === check && b.subject === subject);
  return checks.map((c): Check => {
    if (c.scope === 'agent') {
      const judge: AgentCheck['judge'] = (a, ctx) => {
        const b = stopped(c.id, SESSION);
        if (b) return [{ subject: 'agent', verdict: untested(b.reason) }];
        step(c.id, SESSION);
        return c.judge(a, ctx);
      };
      return { ...c, judge };
    }
    const judge: ExchangeCheck['judge'] = (x: Exchange, ctx: CheckContext) => {
      const subject = toolName(x);
      const b = stopped(c.id, subject);
      if (b) return untested(b.reason);
      step(c.id, subject);
      return c.judge(x, ctx);
    };
    const session = c.judgeSession;
    if (!session) return { ...c, judge };
    const judgeSession: ExchangeCheck['judgeSession'] = (a, ctx) => {
      const b = stopped(c.id, SESSION);
      if (b) return [{ subject: 'session', verdict: untested(b.reason) }];
      step(c.id, SESSION);
      return session(a, ctx);
    };
    return { ...c, judge, judgeSession };
  });
}

async function judge(job: JudgeJob): Promise<void> {
  const { id } = job;
  post({ type: 'phase', id, phase: 'prepare' });
  // Part by part, each part's bytes dropped once parsed: no one string holds a large capture whole.
  const parts = job.capture;
  job.capture = { frame: new Uint8Array(0), exchanges: null };
  const capture = captureFromParts(parts);
  const notes: string[] = [];
  const ctx: CheckContext = {};
  const progress = progressWriter(job.progress);
  let adcpVersion: { version: string; reason: string } | null = null;
  if (capture.initialize?.ok) {
    try {
      const schemas = await createSchemaService(capture, schemaSourceFromSpec(job.source), {
        onStep: progress.schema,
        blocked: (step) =>
          job.blocked.find((b) => b.kind === 'schema' && b.action === step.action && b.tool === step.tool && b.schema === step.schema)
            ?.reason,
      });
      schemas.compileAdcpSchemas(); // our own schemas: compiled before the seller's budget starts
      ctx.schemas = schemas;
      adcpVersion = schemas.adcpVersion;
    } catch (err) {
      // Schema checks are then untested with their own reason; the other checks still run.
      notes.push(`AdCP schemas unavailable: ${errorText(err)}`);
    }
  }
  post({ type: 'phase', id, phase: 'judge' });
  const wanted = job.checks ? new Set(job.checks) : null;
  let outcomes: Outcome[];
  try {
    outcomes = judgeAgent(capture, ctx, wanted ? (checkId) => wanted.has(checkId) : undefined, announced(catalog, job.blocked, progress));
  } catch (err) {
    outcomes = [];
    notes.push(`judging failed: ${errorText(err)}`);
  }
  post({
    type: 'done',
    id,
    outcomes,
    adcpVersion,
    notes,
    stateRules: stateRuleIds(catalog),
    layers: layerCounts(capture),
    heapUsedMb: Math.round(getHeapStatistics().used_heap_size / 2 ** 20),
  });
}

port.on('message', (job: JudgeJob) => {
  if (job?.type !== 'judge') return;
  judge(job).catch((err: unknown) => post({ type: 'failed', id: job.id, reason: errorText(err) }));
});
post({ type: 'ready' });
