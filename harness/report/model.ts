// What a finished run looks like to every report: agents, their facts and their outcomes. Built by
// harness/run from vitest's results (so a merged, sharded run reports exactly like a single one).
// Every string in here is already sanitized (harness/report/sanitize.ts); renderers only escape.
import type { Outcome } from '../checks/check.ts';

export type Layer = 'validate_root' | 'legacy_wrapper' | 'missing' | 'schema';
export const LAYERS: readonly Layer[] = ['validate_root', 'legacy_wrapper', 'missing', 'schema'];

export interface AgentFacts {
  name: string;
  /** Position in the config (keeps report order stable across shards). */
  index: number;
  transport: 'http' | 'stdio';
  /** Negotiated MCP protocol revision, null when initialize failed. */
  protocolVersion: string | null;
  server: { name: string | null; version: string | null };
  /** AdCP version the schemas were chosen for, and why. */
  adcpVersion: string | null;
  adcpVersionReason: string | null;
  layers: Record<Layer, number>;
  /** False when `initialize` did not answer (exit code 3). */
  reachable: boolean;
  /** Why the harness could not finish judging this agent (interrupted, judging failed), or null. */
  incomplete: string | null;
  /** The session ended early on the seller's side (agent timeout, crash): a transport.call failure, not exit 3. */
  aborted: string | null;
}

/** An outcome as the reports carry it: the engine's Outcome, plus the baseline reason when it is a known one. */
export interface ReportOutcome extends Outcome {
  /** Reason from the agent's `expect` baseline when this fail/warn is a known one. */
  baseline?: string;
}

export interface AgentReport extends AgentFacts {
  outcomes: ReportOutcome[];
}

export interface RunReport {
  agents: AgentReport[];
  /** `--strict`: SHOULD failures (warnings) fail the run too. */
  strict: boolean;
  /** Why the whole run stopped early (interrupted, vitest error), or null. */
  cutShort: string | null;
}

export interface Counts {
  pass: number;
  fail: number;
  warn: number;
  skip: number;
  /** Fails and warnings matched by an `expect` baseline entry (not counted in fail / warn). */
  baselined: number;
}

export function countOutcomes(outcomes: readonly ReportOutcome[]): Counts {
  const counts: Counts = { pass: 0, fail: 0, warn: 0, skip: 0, baselined: 0 };
  for (const o of outcomes) {
    if (o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn')) counts.baselined++;
    else counts[o.status]++;
  }
  return counts;
}

export function addCounts(a: Counts, b: Counts): Counts {
  return { pass: a.pass + b.pass, fail: a.fail + b.fail, warn: a.warn + b.warn, skip: a.skip + b.skip, baselined: a.baselined + b.baselined };
}

/** Does this outcome fail the run? Fails always, warnings under --strict; baselined ones never. */
export function failsRun(o: ReportOutcome, strict: boolean): boolean {
  if (o.baseline !== undefined) return false;
  return o.status === 'fail' || (strict && o.status === 'warn');
}

/** 3 incomplete (beats 1: a partial run may hide failures) · 1 a conformance failure · 0 clean. */
export function exitCodeOf(report: RunReport): 0 | 1 | 3 {
  if (report.cutShort !== null || report.agents.some((a) => !a.reachable || a.incomplete !== null)) return 3;
  return report.agents.some((a) => a.outcomes.some((o) => failsRun(o, report.strict))) ? 1 : 0;
}

/** `at /pointer: expected …, found …` or the message the check gave. */
export function detailOf(o: ReportOutcome): string {
  if (o.message) return o.message;
  if (o.pointer !== undefined) return `at ${o.pointer}: expected ${o.expected ?? '?'}, found ${o.found ?? '?'}`;
  return '';
}
