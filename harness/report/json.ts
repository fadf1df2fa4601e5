// report.json: the stable, documented machine-readable report (docs/reports.md § "report.json"), validated by
// harness/report/report.schema.json. Bump REPORT_SCHEMA_VERSION on any change that is not a pure addition.
import {
  addCounts,
  agentVerdict,
  baselineUse,
  configErrorsOf,
  exitCodeOf,
  gateExitCode,
  incompleteReason,
  runVerdict,
  storyboardCounts,
  verdictText,
  ZERO_COUNTS,
} from './model.ts';
import type {
  AccountUse,
  AgentReport,
  BaselineUse,
  Comparison,
  Counts,
  CreatedObject,
  DownReason,
  Evidence,
  FailOn,
  Layer,
  RunProvenance,
  RunReport,
  TaskTrace,
  Verdict,
  VerdictLabel,
} from './model.ts';
import { accountLine, createdHeading, ENABLE_STATE_RULES, outOfReachLine } from './sandbox-notes.ts';
import type { Level, SchemaError, Status } from '../checks/check.ts';
import { HARNESS_VERSION } from '../version.ts';
import { catalogCounts } from './counts.ts';
import { runVerdictLabel, verdictLabel } from './gate.ts';
import type { WebhookFacts } from '../webhooks/report-facts.ts';

export const REPORT_SCHEMA_VERSION = 2;

export interface ReportJsonOutcome {
  check: string;
  tool: string;
  status: Status;
  message: string;
  severity: Level;
  spec: string;
  specUrl: string;
  fix?: string;
  pointer?: string;
  expected?: string;
  found?: string;
  schemaErrors?: SchemaError[];
  schemaErrorsOmitted?: number;
  durationMs?: number;
  evidence?: Evidence;
  baseline?: string;
  /** The official storyboards' outcomes: reported, never counted (unless --strict-storyboards). */
  advisory?: boolean;
  /** The failure did not repeat when the read-only call was made again in a fresh session. */
  flaky?: true;
  /** Untested: the check whose failure left it unverified. */
  blockedBy?: string;
  /** Untested, and that failure is baselined (`check › tool`): the baseline accounts for it. */
  coveredBy?: string;
}

export interface ReportJsonAgent {
  name: string;
  verdict: Verdict;
  /** `verdict`, or `conformant with baseline` when baselined failures were excused (the table's verdict cell). */
  verdictLabel: VerdictLabel;
  verdictText: string;
  /** Why the verdict is `incomplete` (unreachable, cut short, a MUST left untested), else null. */
  verdictReason: string | null;
  transport: 'http' | 'stdio';
  protocolVersion: string | null;
  server: { name: string | null; version: string | null };
  adcpVersion: string | null;
  adcpVersionReason: string | null;
  reachable: boolean;
  incomplete: string | null;
  aborted: string | null;
  durationMs: number | null;
  stderrTail?: string;
  /** The official storyboards' outcomes, counted apart from `summary` (the catalog's checks). */
  storyboards?: { pass: number; fail: number; notApplicable: number; untested: number };
  /** Why an unreachable agent is down: cause, what happened, what to do. */
  down?: DownReason;
  /** The agent's `expect` entries and whether they were applied (false under --no-baseline). */
  baseline?: { entries: number; applied: boolean };
  /** Config errors only the agent's answers revealed (an `expect` entry naming a tool it does not expose). */
  configErrors?: string[];
  /** The AdCP account reference the agent's calls named: the config's, or the harness's own natural-key sandbox reference. */
  account?: AccountUse & { text: string };
  /** The state rules a read-only run left not-applicable (the agent is not marked sandbox), and how to enable them. */
  stateRulesOutOfReach?: { rules: string[]; text: string; enable: string };
  /** What the sandbox flows made the seller create, cleaned up or kept. */
  created?: { objects: CreatedObject[]; omitted: number; text: string };
  /** The webhook receiver the harness hosted for a sandbox agent: where the calls pointed, what arrived (bounded). */
  webhooks?: WebhookFacts;
  /** The task lifecycle flow of a sandbox agent, call by call: the first answer, each poll, the terminal result, the replay. */
  taskLifecycle?: TaskTrace;
  outcomes: ReportJsonOutcome[];
  layers: Record<Layer, number>;
  summary: Counts;
}

export interface ReportJson {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  run: RunProvenance | null;
  verdict: Verdict;
  /** `verdict`, or `conformant with baseline` when any agent's baselined failures were excused. */
  verdictLabel: VerdictLabel;
  strict: boolean;
  complete: boolean;
  cutShort: string | null;
  exitCode: 0 | 1 | 2 | 3;
  /** `--fail-on`: `any` (every failure counts) or `regressions` (only what got worse than `--compare`). */
  failOn: FailOn;
  /** Whether the `expect` baselines applied (every report says so). */
  baselines: BaselineUse;
  /** `--compare`: what changed since the previous report; null without it. */
  comparison: Comparison | null;
  /** Config errors found during the run (they make the exit code 2). */
  configErrors: string[];
  agents: ReportJsonAgent[];
  summary: Counts;
}

/** The JSON of report.json (its text: JSON.stringify(…, null, 2) and a newline; see reportJsonText). */
export function buildReportJson(report: RunReport): ReportJson {
  const harnessVersion = report.run?.harnessVersion ?? HARNESS_VERSION;
  let summary: Counts = { ...ZERO_COUNTS };
  const agents = report.agents.map((a) => {
    const { agent, counts } = reportJsonAgent(a, report.strict, harnessVersion);
    summary = addCounts(summary, counts);
    return agent;
  });
  return reportJsonRun(report, agents, summary);
}

/**
 * report.json's text in pieces: the same text as JSON.stringify(buildReportJson(report), null, 2) + '\n',
 * each agent serialized on its own, so that neither the whole report's JSON tree nor its text is ever held
 * (a two-byte string as soon as one character is outside Latin-1: 132 MB for the 66 MB of 64 sandbox agents).
 */
export function* reportJsonText(report: RunReport): Generator<string> {
  const harnessVersion = report.run?.harnessVersion ?? HARNESS_VERSION;
  // Each agent's counts, once: the run's summary is written before the agents, and each agent then shows its own.
  const counts = report.agents.map(catalogCounts);
  const summary = counts.reduce(addCounts, { ...ZERO_COUNTS });
  // The run's own fields around an empty agents list, which is then written where JSON.stringify put it: the
  // only place `\n  "agents": []` can stand is a top-level key (inside a string value its quotes are escaped).
  const top = JSON.stringify(reportJsonRun(report, [], summary), null, 2);
  const at = top.indexOf(AGENTS_KEY);
  if (report.agents.length === 0 || at < 0) {
    yield `${JSON.stringify(buildReportJson(report), null, 2)}\n`;
    return;
  }
  yield `${top.slice(0, at)}\n  "agents": [`;
  for (const [i, a] of report.agents.entries()) {
    const { agent } = reportJsonAgent(a, report.strict, harnessVersion, counts[i]);
    yield `${i === 0 ? '' : ','}\n    ${JSON.stringify(agent, null, 2).replaceAll('\n', '\n    ')}`;
  }
  yield `\n  ]${top.slice(at + AGENTS_KEY.length)}\n`;
}

/** The empty agents list as JSON.stringify writes it among the top-level keys (indent 2). */
const AGENTS_KEY = '\n  "agents": []';

/** One agent as report.json has it. */
function reportJsonAgent(
  a: AgentReport,
  strict: boolean,
  harnessVersion: string,
  // The catalog's checks; the official storyboards are counted apart (`storyboards`), as in every report.
  counts: Counts = catalogCounts(a),
): { agent: ReportJsonAgent; counts: Counts } {
  const verdict = agentVerdict(a, strict);
  const agent: ReportJsonAgent = {
    name: a.name,
    verdict,
    verdictLabel: verdictLabel(a, strict),
    verdictText: verdictText(verdict, a.adcpVersion, harnessVersion, counts.baselined),
    verdictReason: incompleteReason(a, strict),
    transport: a.transport,
    protocolVersion: a.protocolVersion,
    server: { name: a.server.name, version: a.server.version },
    adcpVersion: a.adcpVersion,
    adcpVersionReason: a.adcpVersionReason,
    reachable: a.reachable,
    incomplete: a.incomplete,
    aborted: a.aborted,
    durationMs: a.durationMs ?? null,
    // Explicit field lists: nothing from a seller is ever spread into the report.
    outcomes: a.outcomes.map((o) => {
      const out: ReportJsonOutcome = {
        check: o.check,
        tool: o.tool,
        status: o.status,
        message: o.message,
        severity: o.severity,
        spec: o.spec,
        specUrl: o.specUrl,
      };
      if (o.fix !== undefined) out.fix = o.fix;
      if (o.pointer !== undefined) out.pointer = o.pointer;
      if (o.expected !== undefined) out.expected = o.expected;
      if (o.found !== undefined) out.found = o.found;
      if (o.schemaErrors !== undefined)
        out.schemaErrors = o.schemaErrors.map((e) => ({ pointer: e.pointer, keyword: e.keyword, expected: e.expected, found: e.found }));
      if (o.schemaErrorsOmitted !== undefined) out.schemaErrorsOmitted = o.schemaErrorsOmitted;
      if (o.durationMs !== undefined) out.durationMs = o.durationMs;
      if (o.evidence !== undefined) out.evidence = pickEvidence(o.evidence);
      if (o.baseline !== undefined) out.baseline = o.baseline;
      if (o.advisory === true) out.advisory = true;
      if (o.flaky === true) out.flaky = true;
      if (o.blockedBy !== undefined) out.blockedBy = o.blockedBy.check;
      if (o.coveredBy !== undefined) out.coveredBy = o.coveredBy;
      return out;
    }),
    layers: {
      validate_root: a.layers.validate_root,
      legacy_wrapper: a.layers.legacy_wrapper,
      missing: a.layers.missing,
      schema: a.layers.schema,
    },
    summary: counts,
  };
  if (a.stderrTail !== undefined) agent.stderrTail = a.stderrTail;
  const storyboards = storyboardCounts(a);
  if (storyboards) agent.storyboards = storyboards;
  if (a.down !== undefined) agent.down = { cause: a.down.cause, detail: a.down.detail, fix: a.down.fix };
  if (a.baseline !== undefined) agent.baseline = { entries: a.baseline.entries, applied: a.baseline.applied };
  if (a.configErrors?.length) agent.configErrors = [...a.configErrors];
  const account = accountLine(a);
  if (a.account && account !== null)
    agent.account = {
      source: a.account.source,
      reference: a.account.reference,
      ...(a.account.refusals?.length
        ? { refusals: a.account.refusals.map((r) => ({ code: r.code, calls: r.calls, tools: [...r.tools] })) }
        : {}),
      text: account,
    };
  const reach = outOfReachLine(a);
  if (reach !== null) agent.stateRulesOutOfReach = { rules: [...(a.stateRulesOutOfReach ?? [])], text: reach, enable: ENABLE_STATE_RULES };
  const created = createdHeading(a);
  if (created !== null)
    agent.created = {
      objects: (a.created ?? []).map((c) => ({
        scenario: c.scenario,
        kind: c.kind,
        id: c.id,
        call: c.call,
        cleanup: c.cleanup,
        ...(c.why !== undefined ? { why: c.why } : {}),
      })),
      omitted: a.createdOmitted ?? 0,
      text: created,
    };
  if (a.webhooks) agent.webhooks = structuredClone(a.webhooks);
  if (a.taskTrace) agent.taskLifecycle = structuredClone(a.taskTrace);
  return { agent, counts };
}

function reportJsonRun(report: RunReport, agents: ReportJsonAgent[], summary: Counts): ReportJson {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    run: report.run ?? null,
    verdict: runVerdict(report),
    verdictLabel: runVerdictLabel(report),
    strict: report.strict,
    // The verdict's completeness: under --fail-on regressions the exit code may be 0 or 1 for an incomplete run.
    complete: exitCodeOf(report) !== 3,
    cutShort: report.cutShort,
    exitCode: gateExitCode(report),
    failOn: report.failOn ?? 'any',
    baselines: baselineUse(report),
    comparison: report.comparison ?? null,
    configErrors: configErrorsOf(report),
    agents,
    summary,
  };
}

function pickEvidence(e: Evidence): Evidence {
  const out: Evidence = {};
  for (const key of ['request', 'answer', 'stderr', 'diagnosis', 'sameCauseAs'] as const) if (e[key] !== undefined) out[key] = e[key];
  if (e.related?.length)
    out.related = e.related.map((r) => ({
      call: r.call,
      tool: r.tool,
      ...(r.request !== undefined ? { request: r.request } : {}),
      ...(r.answer !== undefined ? { answer: r.answer } : {}),
    }));
  return out;
}
