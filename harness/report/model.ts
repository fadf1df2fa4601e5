// What a finished run looks like to every report: agents, their facts, outcomes and verdicts. Built by
// harness/run from vitest's results (so a merged, sharded run reports exactly like a single one).
// Every string in here is already sanitized (harness/sanitize.ts); renderers only escape.
import type { Outcome } from '../checks/check.ts';
import type { DownReason } from '../record/down-reason.ts';

export type Layer = 'validate_root' | 'legacy_wrapper' | 'missing' | 'schema';
export const LAYERS: readonly Layer[] = ['validate_root', 'legacy_wrapper', 'missing', 'schema'];

/** The verdict on one agent, or on the whole run. */
export type Verdict = 'conformant' | 'nonconformant' | 'incomplete';

/**
 * The verdict as reports name it: `conformant with baseline` when a conformant verdict excused baselined
 * failures. A label beside the verdict, not a fourth verdict: --compare, the badge and the exit code key on Verdict.
 */
export type VerdictLabel = Verdict | 'conformant with baseline';

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
  /** Why the agent could not be reached (set when reachable is false): the cause, the detail, the fix. */
  down?: DownReason;
  /** Why the harness could not finish judging this agent (interrupted, judging failed), or null. */
  incomplete: string | null;
  /** The session ended early on the seller's side (agent timeout, crash): a transport.call failure, not exit 3. */
  aborted: string | null;
  /** Wall time of the agent's session and judging, in ms (null when unknown, e.g. replayed). */
  durationMs: number | null;
  /** The seller's stderr tail when it could not start or died (stdio only; redacted, bounded). */
  stderrTail?: string;
  /** The agent's `expect` baseline in this run: how many entries, and whether they were applied (false under --no-baseline). */
  baseline?: { entries: number; applied: boolean };
  /** Config errors that only the agent's answers could reveal (an `expect` entry naming a tool it does not expose): exit 2. */
  configErrors?: string[];
  /** The AdCP account reference the agent's calls named (every report says which). Absent in older reports. */
  account?: AccountUse;
  /**
   * The state rules (checks declared `requires: 'sandbox'`) left not-applicable because the agent is not
   * marked sandbox, in catalog order: every report lists them in one line with how to enable them.
   */
  stateRulesOutOfReach?: string[];
  /** What the sandbox flows made the seller create, and whether they cleaned it up (bounded). */
  created?: CreatedObject[];
  /** How many created objects were left out of `created`. */
  createdOmitted?: number;
  /** The webhook receiver the harness hosted (sandbox agents): what arrived, bounded. */
  webhooks?: import('../webhooks/report-facts.ts').WebhookFacts;
  /** The task lifecycle flow (sandbox agents): the booking's first answer, each poll, the terminal result, the replay. */
  taskTrace?: TaskTrace;
}

/** What the task lifecycle flow did, call by call (strings sanitized and bounded). */
export interface TaskTrace {
  /** One line: the first answer, the polls, where the task ended; or why the flow did not run. */
  text: string;
  calls: TaskTraceCall[];
}

export interface TaskTraceCall {
  /** Index of the call in the agent's session. */
  call: number;
  /** The flow's step: book, poll-1 …, replay, cleanup. */
  step: string;
  tool: string;
  /** What the answer said in a word: a task status, `error CODE`, `no answer`, `no payload`. */
  status: string;
  taskId?: string;
  request: string;
  answer?: string;
}

/** The account the calls named: the config's `account`, or the harness's own natural-key sandbox reference. */
export interface AccountUse {
  source: 'config' | 'harness';
  /** The reference as JSON (bounded, redacted). */
  reference: string;
  /** The calls the seller refused for their account (ACCOUNT_REQUIRED, ACCOUNT_NOT_FOUND …), by code: how many, on which tools. */
  refusals?: Array<{ code: string; calls: number; tools: string[] }>;
}

/** An object a sandbox flow made the seller create (ids as the seller answered them: sanitized). */
export interface CreatedObject {
  /** The scenario (flow) that created it. */
  scenario: string;
  kind: string;
  id: string;
  /** Index of the call that created it, in the agent's session. */
  call: number;
  cleanup: 'cleaned-up' | 'kept';
  /** Why it was kept (or how it was cleaned up). */
  why?: string;
}

export type { DownCause, DownReason } from '../record/down-reason.ts';

/** What the harness sent and what the seller answered, shown with every fail and warn (bounded, redacted). */
export interface Evidence {
  /** `tool {arguments as JSON}` as sent. */
  request?: string;
  /** The seller's own answer: error text, adcp_error, exception message, or the start of the payload. */
  answer?: string;
  /** Lines the seller wrote on stderr during the call (stdio). */
  stderr?: string;
  /** One plain sentence naming a recognisable root cause, with the fix. */
  diagnosis?: string;
  /** Set on later failures of the same call that share a root cause already reported: `check › tool`. */
  sameCauseAs?: string;
  /** The other calls the finding rests on (a request pair, a write and the read that missed it): each request and answer. */
  related?: RelatedCall[];
}

/** One more call a finding rests on, as evidence (bounded, redacted). */
export interface RelatedCall {
  /** Index of the call in the agent's session. */
  call: number;
  /** The tool, with its scenario step when it was one (`create_media_buy (idempotency: replay)`). */
  tool: string;
  request?: string;
  answer?: string;
}

/** An outcome as the reports carry it: the engine's Outcome, plus baseline, evidence and call duration. */
export interface ReportOutcome extends Outcome {
  /** Reason from the agent's `expect` baseline when this fail/warn is a known one. */
  baseline?: string;
  /** Duration of the call the outcome judges, in ms (session checks: absent). */
  durationMs?: number;
  evidence?: Evidence;
  /**
   * A failure of a read-only call that passed when the call was made again in a fresh session: it stays a
   * failure (the seller answered wrongly once), but is listed apart and never counted as a regression.
   */
  flaky?: boolean;
  /**
   * On an untested outcome: the baselined failure (`check › tool`) that is its precondition (see
   * coverByBaseline). The baseline accounts for it: it leaves nothing unverified and is counted apart.
   */
  coveredBy?: string;
}

export interface AgentReport extends AgentFacts {
  outcomes: ReportOutcome[];
}

/** Where the run came from: enough to reproduce it and to know what a verdict was measured against. */
export interface RunProvenance {
  startedAt: string;
  endedAt: string;
  harnessVersion: string;
  node: string;
  mcpSdkVersion: string;
  adcpSdkVersion: string;
  schemaSource: { kind: string; location: string; versions: string[]; trees?: Record<string, string> };
  /** The config file's base name, or null for the embedded reference seller / a replay. */
  config: string | null;
  /** `--storyboards`: what ran, graded by which corpus (the pinned @adcp/sdk's). */
  storyboards?: { selection: string; corpusVersion: string; strict: boolean };
}

/** Storyboard outcomes of an agent by status (they are advisory: never in the verdict unless strict). */
export function storyboardCounts(a: AgentReport): Record<'pass' | 'fail' | 'notApplicable' | 'untested', number> | null {
  const mine = a.outcomes.filter((o) => o.check.startsWith('storyboard.'));
  if (!mine.length) return null;
  const counts = { pass: 0, fail: 0, notApplicable: 0, untested: 0 };
  for (const o of mine) {
    if (o.status === 'not-applicable') counts.notApplicable++;
    else if (o.status === 'fail' || o.status === 'warn') counts.fail++;
    else counts[o.status]++;
  }
  return counts;
}

export interface RunReport {
  agents: AgentReport[];
  /** `--strict`: SHOULD failures (warnings) fail the run too. */
  strict: boolean;
  /** Why the whole run stopped early (interrupted, vitest error, a shard missing from a merge), or null. */
  cutShort: string | null;
  run?: RunProvenance;
  /** `--fail-on`: what the exit code gates on (default `any`). */
  failOn?: FailOn;
  /** `--compare`: what changed since the previous run's report. */
  comparison?: Comparison;
}

/** `--fail-on any` (every failure counts) or `regressions` (only what got worse than the `--compare` run). */
export type FailOn = 'any' | 'regressions';

/** One outcome in a comparison: its identity (agent · check · tool, plus the probe ordinal past the first) and its message, normalised. */
export interface ComparedOutcome {
  agent: string;
  check: string;
  tool: string;
  /** The 2nd, 3rd … judgement of the same check on the same tool label in one agent (a tool probed twice); absent for the first. */
  probe?: number;
  /** The failure message (the current one; for `fixed`, the previous one), with run-specific ids, times and durations normalised. */
  message: string;
}

/** One agent in a comparison. */
export interface ComparedAgent {
  agent: string;
  /** newlyUnreachable: why initialize failed (normalised). */
  message?: string;
}

/** What changed since the previous run (`--compare PREVIOUS_REPORT_JSON`). */
export interface Comparison {
  against: { startedAt: string | null; harnessVersion: string | null };
  /** Failing now, not failing before (agents reachable in both runs; flaky failures excluded). */
  newFailures: ComparedOutcome[];
  /** Failing before, passing now. */
  fixed: ComparedOutcome[];
  /** Failing now, but passed when re-verified in a fresh session: never a regression. */
  flaky: ComparedOutcome[];
  /** Failing in both runs. */
  stillFailing: number;
  /** Reachable before, unreachable now. */
  newlyUnreachable: ComparedAgent[];
  /** Unreachable before, reachable now: its outcomes are not diffed (no comparable history). */
  backOnline: ComparedAgent[];
  /** In this run only: no history, so its failures are not new failures. */
  added: ComparedAgent[];
  /** In the previous run only. */
  removed: ComparedAgent[];
}

/** What `--fail-on regressions` fails on: new failures and newly unreachable agents. */
export function regressionCount(c: Comparison): number {
  return c.newFailures.length + c.newlyUnreachable.length;
}

/** Config errors the run found only once agents answered (exit 2). */
export function configErrorsOf(report: RunReport): string[] {
  return report.agents.flatMap((a) => a.configErrors ?? []);
}

/**
 * The process exit code: 2 when the config proved wrong during the run (an `expect` entry naming a tool
 * the agent does not expose); under `--fail-on regressions` with a comparison, 3 only when the run itself
 * was cut short, 1 for a regression, else 0; otherwise exitCodeOf.
 */
export function gateExitCode(report: RunReport): 0 | 1 | 2 | 3 {
  if (configErrorsOf(report).length) return 2;
  if (report.failOn === 'regressions' && report.comparison) {
    if (report.cutShort !== null) return 3;
    return regressionCount(report.comparison) > 0 ? 1 : 0;
  }
  return exitCodeOf(report);
}

/** Whether the run's baselines applied, in one sentence every report prints. */
export interface BaselineUse {
  state: 'applied' | 'ignored' | 'none';
  /** `expect` entries over all agents. */
  entries: number;
  text: string;
}

export function baselineUse(report: RunReport): BaselineUse {
  const withEntries = report.agents.filter((a) => (a.baseline?.entries ?? 0) > 0);
  const entries = withEntries.reduce((n, a) => n + (a.baseline?.entries ?? 0), 0);
  if (!entries) return { state: 'none', entries, text: 'baselines: none (no agent has expect entries)' };
  const counts = report.agents.reduce((sum, a) => addCounts(sum, countOutcomes(a.outcomes)), ZERO_COUNTS);
  const baselined = counts.baselined;
  const covered = counts.coveredByBaseline;
  if (withEntries.some((a) => a.baseline?.applied === false)) {
    return {
      state: 'ignored',
      entries,
      text: `baselines: NOT applied (--no-baseline): ${entries} expect entr${entries === 1 ? 'y' : 'ies'} ignored, every failure counts`,
    };
  }
  return {
    state: 'applied',
    entries,
    text:
      `baselines: applied (${entries} expect entr${entries === 1 ? 'y' : 'ies'}; ${baselined} expected failure${baselined === 1 ? '' : 's'} not counted` +
      (covered ? `, nor ${covered} check${covered === 1 ? '' : 's'} they left untested)` : ')'),
  };
}

export interface Counts {
  pass: number;
  fail: number;
  warn: number;
  notApplicable: number;
  untested: number;
  /** Fails and warnings matched by an `expect` baseline entry (not counted in fail / warn). */
  baselined: number;
  /** Untested outcomes whose precondition is a baselined failure (`coveredBy`; not counted in untested). */
  coveredByBaseline: number;
}

export const ZERO_COUNTS: Readonly<Counts> = Object.freeze({
  pass: 0,
  fail: 0,
  warn: 0,
  notApplicable: 0,
  untested: 0,
  baselined: 0,
  coveredByBaseline: 0,
});

export function countOutcomes(outcomes: readonly ReportOutcome[]): Counts {
  const counts: Counts = { ...ZERO_COUNTS };
  for (const o of outcomes) {
    if (o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn')) counts.baselined++;
    else if (o.status === 'untested' && o.coveredBy !== undefined) counts.coveredByBaseline++;
    else if (o.status === 'not-applicable') counts.notApplicable++;
    else counts[o.status]++;
  }
  return counts;
}

export function addCounts(a: Counts, b: Counts): Counts {
  return {
    pass: a.pass + b.pass,
    fail: a.fail + b.fail,
    warn: a.warn + b.warn,
    notApplicable: a.notApplicable + b.notApplicable,
    untested: a.untested + b.untested,
    baselined: a.baselined + b.baselined,
    coveredByBaseline: a.coveredByBaseline + b.coveredByBaseline,
  };
}

/** Does this outcome fail the run? Fails always, warnings under --strict; baselined ones never. */
export function failsRun(o: Pick<ReportOutcome, 'baseline' | 'status' | 'advisory'>, strict: boolean): boolean {
  // Advisory outcomes (the official storyboards, unless --strict-storyboards) are reported, never counted.
  if (o.baseline !== undefined || o.advisory === true) return false;
  return o.status === 'fail' || (strict && o.status === 'warn');
}

/**
 * A check that applies but was not verified, at a level that matters for the verdict — unless a baselined
 * failure is what left it untested (coveredBy): the baseline accounts for it.
 */
export function leavesUnverified(o: ReportOutcome, strict: boolean): boolean {
  return o.advisory !== true && o.status === 'untested' && o.coveredBy === undefined && (o.severity === 'MUST' || strict);
}

/** How far coverByBaseline follows untested preconditions (an untested blocker blocked in turn). */
const MAX_BLOCKER_DEPTH = 8;

/**
 * The agent's outcomes, each untested one whose failed precondition (`blockedBy`: that check, on the same
 * call — or the session, for a session-level check) is a baselined fail or warn marked `coveredBy` it. The
 * precondition may itself be untested and covered in turn. A blocker that failed on another call, or whose
 * failure is not baselined, covers nothing: the outcome stays unverified.
 */
export function coverByBaseline(outcomes: readonly ReportOutcome[]): ReportOutcome[] {
  const byCheck = new Map<string, ReportOutcome[]>();
  for (const o of outcomes) {
    const list = byCheck.get(o.check);
    if (list) list.push(o);
    else byCheck.set(o.check, [o]);
  }
  const memo = new Map<ReportOutcome, string | null>();
  const coverOf = (o: ReportOutcome, depth: number): string | null => {
    if (o.status === 'fail' || o.status === 'warn') return o.baseline !== undefined ? `${o.check} › ${o.tool}` : null;
    const blocker = o.blockedBy;
    if (o.status !== 'untested' || blocker === undefined || depth > MAX_BLOCKER_DEPTH) return null;
    const known = memo.get(o);
    if (known !== undefined) return known;
    memo.set(o, null); // a cycle covers nothing
    let found: string | null = null;
    for (const b of byCheck.get(blocker.check) ?? []) {
      if (b === o || b.call !== blocker.call) continue;
      found = coverOf(b, depth + 1);
      if (found !== null) break;
    }
    memo.set(o, found);
    return found;
  };
  return outcomes.map((o) => {
    if (o.status !== 'untested' || o.blockedBy === undefined) return o;
    const cover = coverOf(o, 0);
    return cover === null ? o : { ...o, coveredBy: cover };
  });
}

/**
 * incomplete: unreachable or cut short (nothing else can be said) · nonconformant: a MUST failed (a SHOULD
 * too under --strict) · incomplete: a MUST stayed untested · conformant: everything applicable verified.
 */
export function agentVerdict(a: AgentReport, strict: boolean): Verdict {
  if (!a.reachable || a.incomplete !== null) return 'incomplete';
  if (a.outcomes.some((o) => failsRun(o, strict))) return 'nonconformant';
  if (a.outcomes.some((o) => leavesUnverified(o, strict))) return 'incomplete';
  return 'conformant';
}

/** Why an agent is incomplete, in one line (null when it is not). */
export function incompleteReason(a: AgentReport, strict: boolean): string | null {
  if (!a.reachable) return a.incomplete ?? (a.down ? `unreachable: ${a.down.detail}` : 'initialize did not answer');
  if (a.incomplete !== null) return a.incomplete;
  if (agentVerdict(a, strict) !== 'incomplete') return null;
  const open = a.outcomes.filter((o) => leavesUnverified(o, strict));
  const first = open[0];
  return first ? `${open.length} check(s) applied but could not be verified, first ${first.check} › ${first.tool}: ${first.message}` : null;
}

/** The run: incomplete if cut short or any agent is · else nonconformant if any agent is · else conformant. */
export function runVerdict(report: RunReport): Verdict {
  if (report.cutShort !== null || report.agents.length === 0) return 'incomplete';
  const verdicts = report.agents.map((a) => agentVerdict(a, report.strict));
  if (verdicts.includes('incomplete')) return 'incomplete';
  return verdicts.includes('nonconformant') ? 'nonconformant' : 'conformant';
}

/** 3 incomplete (beats 1: a partial run may hide failures) · 1 a conformance failure · 0 conformant. */
export function exitCodeOf(report: RunReport): 0 | 1 | 3 {
  const verdict = runVerdict(report);
  return verdict === 'incomplete' ? 3 : verdict === 'nonconformant' ? 1 : 0;
}

/**
 * The verdict in words, always qualified by what it was measured against (never "certified"), and by the
 * baseline when `baselined` failures (Counts.baselined) were excused: "conformant with baseline".
 */
export function verdictText(verdict: Verdict, adcpVersion: string | null, harnessVersion: string | undefined, baselined = 0): string {
  const per = `per adcp-conformance ${harnessVersion ?? '(unknown version)'}`;
  const adcp = adcpVersion && adcpVersion !== 'none' ? `AdCP ${adcpVersion}` : 'AdCP (version unknown)';
  const excused = baselined > 0 ? ` (${baselined} baselined failure${baselined === 1 ? '' : 's'} not counted)` : '';
  switch (verdict) {
    case 'conformant':
      return `conformant${excused ? ' with baseline' : ''} to ${adcp} ${per}${excused}`;
    case 'nonconformant':
      return `nonconformant to ${adcp} ${per}${excused}`;
    case 'incomplete':
      return `incomplete: conformance to ${adcp} not established ${per}${excused}`;
  }
}

/** `at /pointer: expected …, found …` or the message the check gave. */
export function detailOf(o: ReportOutcome): string {
  if (o.message) return o.message;
  if (o.pointer !== undefined) return `at ${o.pointer}: expected ${o.expected ?? '?'}, found ${o.found ?? '?'}`;
  return '';
}

/**
 * What the storyboard corpus grades, said beside it in every report: the pinned runner ships one corpus
 * (3.0.6) and cannot run a newer one faithfully (it cannot pin adcp_version above its own schema bundle and
 * grades response_schema against it), so a seller's newer releases are never graded by storyboards.
 */
export function storyboardScope(corpusVersion: string): string {
  const release = /^\d+\.\d+/.exec(corpusVersion)?.[0] ?? corpusVersion;
  return `grades AdCP ${release} behaviour only: a newer release a seller serves (3.1) is not graded by storyboards, as the pinned runner cannot run a newer corpus faithfully`;
}
