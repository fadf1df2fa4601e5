// One agent's capture → the data its suite needs: sanitized facts and outcomes, baseline applied,
// evidence attached. Everything a seller controls passes through sellerText() here, once, before any
// report sees it.
import type { AgentCapture } from '../capture/exchange.ts';
import type { CheckContext, Outcome, SchemaError } from '../checks/check.ts';
import { judgeAgent, layerCounts } from '../checks/engine.ts';
import initializeCheck from '../checks/transport/initialize.ts';
import { createSchemaService, type SchemaSource } from '../schemas/index.ts';
import type { AgentFacts, ReportOutcome } from '../report/model.ts';
import { optionalText, sellerText } from '../sanitize.ts';
import { attachEvidence } from './evidence.ts';
import type { AgentSuiteData } from './suite-data.ts';

export interface JudgeOptions {
  index: number;
  schemaSource: SchemaSource;
  select?: (checkId: string) => boolean;
  /** The agent's `expect` baseline: check id or `id › tool` → reason. */
  expect?: Readonly<Record<string, string>>;
  secrets: readonly string[];
  strict: boolean;
  /** Wall time of the agent's session so far, in ms. */
  durationMs?: number;
  /** The run was interrupted (Ctrl-C / SIGTERM): what it cut is untested, never the seller's failure. */
  interrupted?: boolean;
  /** `--junit-all`: not-applicable outcomes are test cases too. */
  junitAll?: boolean;
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
  if (capture.initialize.ok) {
    try {
      const schemas = await createSchemaService(capture, opts.schemaSource);
      ctx.schemas = schemas;
      adcpVersion = schemas.adcpVersion;
    } catch (err) {
      // Schema checks are then untested with their own reason; the run itself goes on.
      notes.push(`AdCP schemas unavailable: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  let outcomes: Outcome[];
  try {
    outcomes = judgeAgent(capture, ctx, opts.select);
  } catch (err) {
    outcomes = [];
    notes.push(`judging failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  // An unreachable agent always shows its failing handshake, whatever --check selected.
  if (!capture.initialize.ok && !outcomes.some((o) => o.check === initializeCheck.id && o.status === 'fail')) {
    outcomes = [...judgeAgent(capture, ctx, (id) => id === initializeCheck.id), ...outcomes];
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
    server: { name: optionalText(field(serverInfo, 'name'), secrets), version: optionalText(field(serverInfo, 'version'), secrets) },
    adcpVersion: adcpVersion ? sellerText(adcpVersion.version, secrets, 100) : null,
    adcpVersionReason: adcpVersion ? sellerText(adcpVersion.reason, secrets, 300) : null,
    layers: layerCounts(capture),
    reachable: init.ok,
    // Only our own failures make an agent incomplete here: a schema source that cannot be read leaves the
    // schema checks untested (with the reason), which the verdict counts.
    incomplete: notes.some((n) => n.startsWith('judging failed')) ? sellerText(notes.join('; '), secrets) : null,
    aborted: aborted === null ? null : sellerText(aborted, secrets),
    durationMs: opts.durationMs === undefined ? null : Math.round(opts.durationMs),
  };
  if (showStderr) facts.stderrTail = sellerText(stderrTail.trim(), secrets, 1000);
  if (opts.interrupted) {
    facts.incomplete = facts.incomplete ?? 'run interrupted';
    outcomes = outcomes.map((o) => (o.status === 'fail' && o.found?.includes(CANCELLED) ? interruptedOutcome(o) : o));
  }
  const reported = outcomes.map((o) => reportOutcome(o, opts.expect, secrets));
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

function reportOutcome(o: Outcome, expect: Readonly<Record<string, string>> | undefined, secrets: readonly string[]): ReportOutcome {
  const out: ReportOutcome = {
    check: sellerText(o.check, secrets, 200),
    tool: sellerText(o.tool, secrets, 200),
    status: o.status,
    severity: o.severity,
    message: sellerText(o.message, secrets),
    spec: sellerText(o.spec, secrets, 300),
    specUrl: sellerText(o.specUrl, secrets, 300),
  };
  if (o.call !== undefined) out.call = o.call;
  if (o.pointer !== undefined) out.pointer = sellerText(o.pointer, secrets, 300);
  if (o.expected !== undefined) out.expected = sellerText(o.expected, secrets, 500);
  if (o.found !== undefined) out.found = sellerText(o.found, secrets, 500);
  if (o.fix !== undefined) out.fix = sellerText(o.fix, secrets, 500);
  if (o.schemaErrors?.length) {
    out.schemaErrors = o.schemaErrors.slice(0, REPORTED_SCHEMA_ERRORS).map((e) => schemaError(e, secrets));
    const omitted = (o.schemaErrorsOmitted ?? 0) + Math.max(0, o.schemaErrors.length - REPORTED_SCHEMA_ERRORS);
    if (omitted > 0) out.schemaErrorsOmitted = omitted;
  }
  if (o.status === 'fail' || o.status === 'warn') {
    const reason = baselineReason(expect, o.check, o.tool);
    if (reason !== undefined) out.baseline = sellerText(reason, secrets, 300);
  }
  return out;
}

function schemaError(e: SchemaError, secrets: readonly string[]): SchemaError {
  return {
    pointer: sellerText(e.pointer, secrets, 300),
    keyword: sellerText(e.keyword, secrets, 60),
    expected: sellerText(e.expected, secrets, 300),
    found: sellerText(e.found, secrets, 300),
  };
}

/** `id › tool` first (the narrower entry; `id > tool` is accepted too), then the bare check id. */
export function baselineReason(expect: Readonly<Record<string, string>> | undefined, check: string, tool: string): string | undefined {
  if (!expect) return undefined;
  const own = (key: string) => (Object.prototype.hasOwnProperty.call(expect, key) ? expect[key] : undefined);
  return own(`${check} › ${tool}`) ?? own(`${check} > ${tool}`) ?? own(check);
}

function field(obj: unknown, key: string): unknown {
  return obj !== null && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}
