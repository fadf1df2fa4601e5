// One agent's capture → the data its suite needs: sanitized facts and outcomes, baseline applied,
// evidence attached. Everything a seller controls passes through sellerText() here, once, before any
// report sees it.
import type { AgentCapture } from '../../record/exchange.ts';
import type { CheckContext, Outcome, SchemaError } from '../../checks/check.ts';
import { judgeChecks, layerCounts } from '../../checks/run-checks.ts';
import type { LayerTarget } from '../../extract/layer.ts';
import initializeCheck from '../../checks/transport/initialize.ts';
import staleCheck from '../../checks/baseline/stale.ts';
import { listedNames, matchingEntry, unexposedTool } from '../../checks/baseline/_match.ts';
import { pointerOf } from '../../config/errors.ts';
import { own } from '../../json.ts';
import type { SchemaSource } from '../../schemas/index.ts';
import { judgeInSandbox, type JudgeBudget } from './judge-sandbox.ts';
import { storyboardReportOutcomes, type AgentStoryboards } from '../storyboards.ts';
import { coverByBaseline, type AgentFacts, type ReportOutcome } from '../../report/model.ts';
import { MAX_TEXT, optionalText, sellerText } from '../../sanitize.ts';
import { attachEvidence, releaseFacts } from './evidence.ts';
import { sessionFacts } from './session-facts.ts';
import { downReason } from '../../capture/down-reason.ts';
import type { AgentSuiteData } from '../vitest/index.ts';

export interface JudgeOptions {
  index: number;
  schemaSource: SchemaSource;
  select?: (checkId: string) => boolean;
  /** The agent's `expect` baseline: check id or `id › tool` → reason. */
  expect?: Readonly<Record<string, string>>;
  /** Where each `expect` entry is written in the config (default: `/agents/<index>/expect/<key>`). */
  expectPointers?: Readonly<Record<string, string>>;
  /** The config file, as given (for config errors found once the agent answered). */
  configFile?: string;
  /** `--no-baseline`: the `expect` entries are not applied (baselined failures count) nor judged. */
  noBaseline?: boolean;
  secrets: readonly string[];
  strict: boolean;
  /** Wall time of the agent's session so far, in ms. */
  durationMs?: number;
  /** Time and memory budget of judging this agent (default: harness/run/judge/judge-sandbox.ts). */
  judgeBudget?: Partial<JudgeBudget>;
  /** The run's Ctrl-C: stops judging at once. */
  signal?: AbortSignal;
  /** The run was interrupted (Ctrl-C / SIGTERM): what it cut is untested, never the seller's failure. */
  interrupted?: boolean;
  /** `--junit-all`: not-applicable outcomes are test cases too. */
  junitAll?: boolean;
  /** The agent's storyboard run: its calls are judged with the catalog like probes, its outcomes added (advisory). */
  storyboards?: AgentStoryboards;
  /** `--strict-storyboards`: storyboard outcomes count in the verdict. */
  strictStoryboards?: boolean;
}

/** How capture-agent words a session (or call) it stopped because the run was cancelled. */
const CANCELLED = 'the run was cancelled';

/** At most this many schema errors per outcome reach a report. */
const REPORTED_SCHEMA_ERRORS = 50;

export async function judgeCapture(capture: AgentCapture, opts: JudgeOptions): Promise<AgentSuiteData> {
  const secrets = opts.secrets;
  const notes: string[] = [];
  const ctx: CheckContext = {};
  let adcpVersion: { version: string; reason: string } | null = null;
  // Without the worker's answer there are no state-rule outcomes to find out of reach.
  let stateRules: string[] = [];
  let outcomes: Outcome[] = [];
  let layers: Record<LayerTarget, number> | undefined;
  // Judging runs in a worker under a time and memory budget: a seller's schema (a backtracking pattern,
  // `$async`, a huge answer) costs at most the budget, and never the run. baseline.stale judges the
  // others' outcomes: it runs after them, below, in this thread.
  // Storyboard calls are calls like any probe: the whole catalog judges them.
  if (opts.storyboards?.exchanges.length) capture = { ...capture, exchanges: [...capture.exchanges, ...opts.storyboards.exchanges] };
  const judged = await judgeInSandbox(capture, {
    schemaSource: opts.schemaSource,
    select: (id) => id !== staleCheck.id && (opts.select?.(id) ?? true),
    ...(opts.judgeBudget ? { budget: opts.judgeBudget } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (judged.ok) {
    outcomes = judged.outcomes;
    adcpVersion = judged.adcpVersion;
    stateRules = judged.stateRules;
    layers = judged.layers;
    notes.push(...judged.notes);
  } else {
    notes.push(`judging failed: ${judged.reason}`);
  }
  // An unreachable agent always shows its failing handshake, whatever --check selected.
  if (!capture.initialize.ok && !outcomes.some((o) => o.check === initializeCheck.id && o.status === 'fail')) {
    outcomes = [...judgeChecks([initializeCheck], capture, ctx), ...outcomes];
  }

  const init = capture.initialize;
  const serverInfo: unknown = init.ok ? init.serverInfo : undefined;
  const aborted = capture.aborted ? `${capture.aborted.kind}: ${capture.aborted.message}` : null;
  const stderrTail = capture.stdio?.stderrTail;
  const showStderr = typeof stderrTail === 'string' && stderrTail.trim() !== '' && (!init.ok || capture.stdio?.exit !== undefined);
  const facts: AgentFacts = {
    name: sellerText(capture.agent.name, secrets, 200),
    index: opts.index,
    transport: capture.agent.transport,
    protocolVersion: init.ok ? optionalText(init.protocolVersion, secrets) : null,
    server: { name: optionalText(own(serverInfo, 'name'), secrets), version: optionalText(own(serverInfo, 'version'), secrets) },
    adcpVersion: adcpVersion ? sellerText(adcpVersion.version, secrets, 100) : null,
    adcpVersionReason: adcpVersion ? sellerText(`${adcpVersion.reason} · ${releaseFacts(capture)}`, secrets, 900) : null,
    // Counted by the worker; here only when it could not judge (the audit validator is compiled then).
    layers: layers ?? layerCounts(capture),
    reachable: init.ok,
    // Only our own failures make an agent incomplete here: a schema source that cannot be read leaves the
    // schema checks untested (with the reason), which the verdict counts.
    incomplete: notes.some((n) => n.startsWith('judging failed')) ? sellerText(notes.join('; '), secrets) : null,
    aborted: aborted === null ? null : sellerText(aborted, secrets),
    durationMs: opts.durationMs === undefined ? null : Math.round(opts.durationMs),
  };
  if (showStderr) facts.stderrTail = sellerText(stderrTail.trim(), secrets, 1000);
  const down = downReason(capture);
  if (down) {
    facts.down = { cause: down.cause, detail: sellerText(down.detail, secrets, 600), fix: sellerText(down.fix, secrets, 400) };
    // The handshake's failure gets the fix that fits the cause (a crash is not fixed by answering initialize).
    const fix = facts.down.fix;
    outcomes = outcomes.map((o) => (o.check === initializeCheck.id && o.status === 'fail' ? { ...o, fix } : o));
  }
  if (opts.interrupted) {
    facts.incomplete = facts.incomplete ?? 'run interrupted';
    outcomes = outcomes.map((o) => (o.status === 'fail' && o.found?.includes(CANCELLED) ? interruptedOutcome(o) : o));
  }
  if (opts.storyboards) {
    outcomes = [...outcomes, ...storyboardReportOutcomes(opts.storyboards, opts.strictStoryboards === true)];
  }
  const entries = Object.keys(opts.expect ?? {}).map((key) => ({
    key,
    pointer: opts.expectPointers?.[key] ?? pointerOf('agents', opts.index, 'expect', key),
  }));
  if (opts.select?.(staleCheck.id) ?? true) {
    const baseline = {
      entries,
      applied: opts.noBaseline !== true,
      outcomes: outcomes.map((o) => ({ check: o.check, tool: o.tool, status: o.status })),
    };
    outcomes = [...outcomes, ...judgeChecks([staleCheck], capture, { ...ctx, baseline })];
  }
  facts.baseline = { entries: entries.length, applied: opts.noBaseline !== true };
  const configErrors = unexposedToolErrors(entries, capture, outcomes, opts);
  if (configErrors.length) facts.configErrors = configErrors;
  Object.assign(facts, sessionFacts(capture, outcomes, secrets, stateRules));
  const expect = opts.noBaseline ? undefined : opts.expect;
  const text = sellerTexts(secrets);
  // An outcome left untested by a baselined failure is covered by that baseline (not unverified).
  const reported = coverByBaseline(outcomes.map((o) => reportOutcome(o, expect, text)));
  attachEvidence(reported, capture, secrets);
  return { facts, outcomes: reported, strict: opts.strict, junitAll: opts.junitAll === true };
}

/** A finding the interruption caused: the call was cut by us, so nothing was verified. */
function interruptedOutcome(o: Outcome): Outcome {
  const { pointer: _p, expected: _e, found: _f, fix: _x, ...rest } = o;
  return { ...rest, status: 'untested', message: 'the run was interrupted before this could be verified' };
}

/**
 * judgeCapture, but never throwing: a harness error while judging one agent (a bug of ours, a record we
 * cannot read) makes that agent `incomplete` with the error, and the run goes on for every other agent.
 */
export async function judgeCaptureIsolated(capture: AgentCapture, opts: JudgeOptions): Promise<AgentSuiteData> {
  try {
    return await judgeCapture(capture, opts);
  } catch (err) {
    const why = `judging failed (harness error): ${err instanceof Error ? err.message : String(err)}`;
    let name = '(unnamed agent)';
    let transport: AgentFacts['transport'] = 'stdio';
    try {
      name = String(capture.agent.name);
      transport = capture.agent.transport === 'http' ? 'http' : 'stdio';
    } catch {
      // an unreadable record: keep the placeholders
    }
    const facts: AgentFacts = {
      name: sellerText(name, opts.secrets, 200),
      index: opts.index,
      transport,
      protocolVersion: null,
      server: { name: null, version: null },
      adcpVersion: null,
      adcpVersionReason: null,
      layers: { validate_root: 0, legacy_wrapper: 0, missing: 0, schema: 0 },
      reachable: true,
      incomplete: sellerText(why, opts.secrets, 500),
      aborted: null,
      durationMs: opts.durationMs === undefined ? null : Math.round(opts.durationMs),
    };
    return { facts, outcomes: [], strict: opts.strict, junitAll: opts.junitAll === true };
  }
}

/** sellerText with the agent's secrets, remembered per (text, bound): outcomes repeat the same check ids, tool labels, reasons and spec references thousands of times. */
type SellerTexts = (value: unknown, max?: number) => string;

function sellerTexts(secrets: readonly string[]): SellerTexts {
  const byBound = new Map<number, Map<string, string>>();
  return (value, max = MAX_TEXT) => {
    if (typeof value !== 'string') return sellerText(value, secrets, max);
    let seen = byBound.get(max);
    if (!seen) byBound.set(max, (seen = new Map()));
    let out = seen.get(value);
    if (out === undefined) {
      out = sellerText(value, secrets, max);
      seen.set(value, out);
    }
    return out;
  };
}

function reportOutcome(o: Outcome, expect: Readonly<Record<string, string>> | undefined, text: SellerTexts): ReportOutcome {
  const out: ReportOutcome = {
    check: text(o.check, 200),
    tool: text(o.tool, 200),
    status: o.status,
    severity: o.severity,
    message: text(o.message),
    spec: text(o.spec, 300),
    specUrl: text(o.specUrl, 300),
  };
  if (o.call !== undefined) out.call = o.call;
  if (o.related?.length) out.related = [...o.related];
  if (o.advisory) out.advisory = true;
  if (o.blockedBy !== undefined)
    out.blockedBy =
      o.blockedBy.call === undefined
        ? { check: text(o.blockedBy.check, 200) }
        : { check: text(o.blockedBy.check, 200), call: o.blockedBy.call };
  if (o.pointer !== undefined) out.pointer = text(o.pointer, 300);
  if (o.expected !== undefined) out.expected = text(o.expected, 500);
  if (o.found !== undefined) out.found = text(o.found, 500);
  if (o.fix !== undefined) out.fix = text(o.fix, 500);
  if (o.schemaErrors?.length) {
    out.schemaErrors = o.schemaErrors.slice(0, REPORTED_SCHEMA_ERRORS).map((e) => schemaError(e, text));
    const omitted = (o.schemaErrorsOmitted ?? 0) + Math.max(0, o.schemaErrors.length - REPORTED_SCHEMA_ERRORS);
    if (omitted > 0) out.schemaErrorsOmitted = omitted;
  }
  if (o.status === 'fail' || o.status === 'warn') {
    const reason = baselineReason(expect, o.check, o.tool);
    if (reason !== undefined) out.baseline = text(reason, 300);
  }
  return out;
}

function schemaError(e: SchemaError, text: SellerTexts): SchemaError {
  return {
    pointer: text(e.pointer, 300),
    keyword: text(e.keyword, 60),
    expected: text(e.expected, 300),
    found: text(e.found, 300),
  };
}

/**
 * An `expect` entry naming a tool the agent does not expose is a config error (exit 2), but only its
 * tools/list can tell: one message per such entry, `file: /pointer: …`, like every other config error.
 */
function unexposedToolErrors(
  entries: ReadonlyArray<{ key: string; pointer: string }>,
  capture: AgentCapture,
  outcomes: readonly Outcome[],
  opts: JudgeOptions,
): string[] {
  if (!entries.length) return [];
  const labels = new Set(outcomes.filter((o) => o.check !== staleCheck.id).map((o) => o.tool));
  return entries.flatMap(({ key, pointer }) => {
    const tool = unexposedTool(key, capture, labels);
    if (tool === undefined) return [];
    const where = `${opts.configFile ?? 'config'}: ${pointer}`;
    return [
      sellerText(
        `${where}: names tool '${tool}', which agent '${capture.agent.name}' does not expose (its tools/list: ${listedNames(capture)})`,
        opts.secrets,
        600,
      ),
    ];
  });
}

/** The reason of the entry covering a fail / warn: `id › tool` first (the narrower entry; `id > tool` is accepted too), then the bare check id. */
export function baselineReason(expect: Readonly<Record<string, string>> | undefined, check: string, tool: string): string | undefined {
  const key = matchingEntry(expect, check, tool);
  return key === undefined ? undefined : expect?.[key];
}
