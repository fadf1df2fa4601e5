// Runs the official AdCP storyboards (the SDK's runner, in a worker thread) against the storyboard
// proxy of one agent, and turns every step's validations into outcomes. Advisory: the caller keeps
// these outcomes out of the exit code unless asked otherwise. Never throws for the agent's sake: a
// storyboard that cannot run, or does not finish, becomes untested outcomes with the reason.
import { createRequire } from 'node:module';
import type { StoryboardResult, StoryboardRunOptions } from '@adcp/sdk/testing';
import { isObject, own } from '../json.ts';
import { knownDefects, type KnownDefects } from './known-defects.ts';
import {
  correlate,
  notApplicableStoryboard,
  storyboardOutcomes,
  untestedStoryboard,
  versionMismatch,
  type StoryboardContext,
  type StoryboardOutcome,
} from './outcomes.ts';
import type { ProxiedCall, StoryboardProxy } from './proxy.ts';
import { startRunnerWorker, type PlannedStoryboard, type RunnerWorker, type Selection } from './worker.ts';

export type { Selection } from './worker.ts';
export type { StoryboardOutcome } from './outcomes.ts';

export interface RunStoryboardsOptions {
  /** `universal`, `media-buy` (any bundle id), `all`, or storyboard / bundle ids. */
  selection: Selection;
  /** The agent's storyboard proxy (its URL and token go to the runner; its labels and calls tie calls to storyboards). */
  proxy: Pick<StoryboardProxy, 'url' | 'token' | 'label' | 'calls' | 'refuseWith'>;
  transport: 'stdio' | 'http';
  /** The agent has credentials configured: the security storyboard's API-key phase runs (with the proxy's token). */
  credentials?: boolean;
  /** The agent's raw get_adcp_capabilities payload: gates capability-declared storyboards, tells a version mismatch. */
  capabilities?: unknown;
  /**
   * The agent is marked sandbox (default true). When false, the proxy refuses every mutating task the
   * storyboards send (create_media_buy, sync_creatives …): those steps are untested, the agent untouched.
   */
  sandbox?: boolean;
  /** The protected read-only task the security storyboard probes without / with bad credentials. */
  probeTask?: string;
  /** Budget of one storyboard (default 180 s); past it the runner thread is ended and the rest of it is untested. */
  storyboardTimeoutMs?: number;
  /** Budget of the whole selection (default 15 min). */
  totalTimeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (e: { storyboard: string; index: number; total: number }) => void;
  /** The known-defect list (default: the committed one). */
  defects?: KnownDefects;
  /** Keep the runner's own results in `runnerResults` (diagnostics and tests; they can be large). */
  keepRunnerResults?: boolean;
}

export interface StoryboardCall {
  storyboard?: string;
  /** `<phase>/<step>` when the call was matched to a step. */
  step?: string;
  /** Whether that step expects an error answer (a negative path), and which kind the corpus says it is. */
  expectError?: boolean;
  negativePath?: string;
  call: ProxiedCall;
}

export interface StoryboardRun {
  corpusVersion: string;
  sdk: { name: string; version: string };
  outcomes: StoryboardOutcome[];
  /** Every call the runner made through the proxy, with the storyboard (and step) that made it. */
  calls: StoryboardCall[];
  /** Selection names that match no bundle or storyboard of the corpus. */
  unknown: string[];
  /** Storyboards the selection named, in run order. */
  storyboards: string[];
  durationMs: number;
  /** The runner's own console output (bounded), for diagnosing the runner itself. */
  runnerOutput: string;
  /** The runner's own results, as it graded them (only with `keepRunnerResults`). */
  runnerResults?: StoryboardResult[];
}

export const DEFAULT_STORYBOARD_TIMEOUT_MS = 180_000;
export const DEFAULT_TOTAL_TIMEOUT_MS = 15 * 60_000;
/** The security storyboard's default protected task (its corpus default too). */
export const DEFAULT_PROBE_TASK = 'list_creatives';

/** The pinned SDK that carries the runner and the corpus. */
export function sdkVersion(): { name: string; version: string } {
  const pkg = createRequire(import.meta.url)('@adcp/sdk/package.json') as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/** Storyboards the harness does not hand to the runner, and what they are for this agent instead. */
function decideUnrunnable(
  sb: PlannedStoryboard,
  o: RunStoryboardsOptions,
): { status: 'not-applicable' | 'untested'; reason: string } | undefined {
  if (sb.id === 'signed_requests') {
    const declared = own(own(o.capabilities, 'request_signing'), 'supported');
    if (o.capabilities !== undefined && declared !== true) {
      return {
        status: 'not-applicable',
        reason: 'the agent does not advertise request_signing.supported: true, which gates this storyboard',
      };
    }
    return {
      status: 'untested',
      reason:
        'RFC 9421 signatures cover the exact HTTP request the agent receives; the harness relays storyboard calls through its own session, so signed requests cannot be graded through it',
    };
  }
  if (sb.id === 'security_baseline' && o.transport === 'stdio') {
    return {
      status: 'not-applicable',
      reason: 'MCP authorization is defined for HTTP transports; a stdio server takes its credentials from its environment',
    };
  }
  return undefined;
}

export async function runStoryboards(o: RunStoryboardsOptions): Promise<StoryboardRun> {
  const t0 = performance.now();
  const defects = o.defects ?? knownDefects();
  const storyboardTimeoutMs = o.storyboardTimeoutMs ?? DEFAULT_STORYBOARD_TIMEOUT_MS;
  const deadline = t0 + (o.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS);
  // The runner polls async tasks for 30 s by default; keep that inside a storyboard's budget.
  const env = { STORYBOARD_TASK_POLL_TIMEOUT_MS: String(Math.max(1000, Math.min(30_000, Math.floor(storyboardTimeoutMs / 4)))) };
  let worker: RunnerWorker = startRunnerWorker(env);
  // Cancelling ends the storyboard in flight at once (its steps are untested), not at its budget.
  const onAbort = () => void worker.terminate();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let output = '';
  const outcomes: StoryboardOutcome[] = [];
  const calls: StoryboardCall[] = [];
  const runnerResults: StoryboardResult[] = [];
  try {
    const plan = await worker.plan(typeof o.selection === 'string' ? o.selection : [...o.selection]);
    const corpusVersion = plan.corpusVersion;
    if (o.sandbox === false) {
      const mutating = new Set(plan.mutatingTasks);
      o.proxy.refuseWith((tool) => (mutating.has(tool) ? `${tool} changes state, and the agent is not marked sandbox` : undefined));
    }
    const sdk = sdkVersion();
    const mismatch =
      o.capabilities !== undefined ? versionMismatch(o.capabilities, corpusVersion, `${sdk.name} ${sdk.version}`) : undefined;
    const runnerOptions: StoryboardRunOptions = {
      protocol: 'mcp',
      allow_http: true, // the proxy is plain HTTP on loopback; the agent's own transport is the session's
      auth: { type: 'bearer', token: o.proxy.token },
      ...(o.credentials ? { test_kit: { auth: { api_key: o.proxy.token, probe_task: o.probeTask ?? DEFAULT_PROBE_TASK } } } : {}),
    };

    for (const [index, sb] of plan.storyboards.entries()) {
      const ctxBase = { corpusVersion, defects, ...(mismatch !== undefined ? { versionMismatch: mismatch } : {}) };
      const emptyCtx: StoryboardContext = { ...ctxBase, calls: [] };
      const unrunnable = decideUnrunnable(sb, o);
      if (unrunnable) {
        outcomes.push(
          ...(unrunnable.status === 'untested'
            ? untestedStoryboard(sb, emptyCtx, unrunnable.reason)
            : notApplicableStoryboard(sb, emptyCtx, unrunnable.reason)),
        );
        continue;
      }
      if (o.signal?.aborted || performance.now() >= deadline) {
        outcomes.push(
          ...untestedStoryboard(
            sb,
            emptyCtx,
            o.signal?.aborted
              ? 'the run was cancelled before this storyboard'
              : 'the storyboard budget of the run was spent before this storyboard',
          ),
        );
        continue;
      }
      try {
        o.onProgress?.({ storyboard: sb.id, index, total: plan.storyboards.length });
      } catch {
        /* a listener's bug is not the agent's failure */
      }
      const before = o.proxy.calls.length;
      o.proxy.label(sb.id);
      let result;
      let failure: string | undefined;
      try {
        result = await worker.run(
          sb.id,
          o.proxy.url,
          runnerOptions,
          Math.min(storyboardTimeoutMs, Math.max(1000, deadline - performance.now())),
        );
        if (!result) failure = `the storyboard did not finish within its ${storyboardTimeoutMs} ms budget; the runner was stopped`;
      } catch (err) {
        failure = o.signal?.aborted
          ? 'the run was cancelled during this storyboard'
          : `the storyboard runner failed: ${err instanceof Error ? err.message : String(err)}`;
      } finally {
        o.proxy.label(undefined);
      }
      const mine = o.proxy.calls.slice(before).filter((c) => c.label === sb.id);
      if (!result) {
        output = worker.output() || output;
        await worker.terminate();
        worker = startRunnerWorker(env);
        outcomes.push(...untestedStoryboard(sb, { ...ctxBase, calls: mine }, failure ?? 'no result'));
        for (const call of mine) calls.push({ storyboard: sb.id, call });
        continue;
      }
      if (o.keepRunnerResults) runnerResults.push(result);
      outcomes.push(...storyboardOutcomes(sb, result, { ...ctxBase, calls: mine }));
      // Each call with the step that made it (and whether that step expects an error answer).
      const steps = new Map<string, PlannedStoryboard['phases'][number]['steps'][number]>(
        sb.phases.flatMap((p) => p.steps.map((s) => [`${p.id}/${s.id}`, s] as const)),
      );
      const stepOf = new Map<number, string>();
      for (const [step, stepCalls] of correlate(result.phases, mine))
        for (const c of stepCalls) stepOf.set(c.seq, `${step.phase_id}/${step.step_id}`);
      for (const call of mine) {
        const step = stepOf.get(call.seq);
        const planned = step !== undefined ? steps.get(step) : undefined;
        calls.push({
          storyboard: sb.id,
          ...(step !== undefined ? { step } : {}),
          ...(planned?.expectError ? { expectError: true } : {}),
          ...(planned?.negativePath !== undefined ? { negativePath: planned.negativePath } : {}),
          call,
        });
      }
    }
    return {
      corpusVersion,
      sdk: sdkVersion(),
      outcomes,
      calls,
      unknown: plan.unknown,
      storyboards: plan.storyboards.map((s) => s.id),
      durationMs: Math.round(performance.now() - t0),
      runnerOutput: worker.output() || output,
      ...(o.keepRunnerResults ? { runnerResults } : {}),
    };
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    await worker.terminate();
  }
}

/** The raw get_adcp_capabilities payload from a tools/call result (structuredContent, else the text JSON). */
export function capabilitiesPayload(result: unknown): unknown {
  const structured = own(result, 'structuredContent');
  if (isObject(structured)) return structured;
  const content = own(result, 'content');
  if (Array.isArray(content)) {
    for (const block of content) {
      const text = own(block, 'text');
      if (typeof text !== 'string') continue;
      try {
        const parsed: unknown = JSON.parse(text);
        if (isObject(parsed)) return parsed;
      } catch {
        /* not JSON */
      }
    }
  }
  return undefined;
}
