// The check engine: runs checks over one agent's capture and turns verdicts into outcomes (engine.ts
// binds it to the whole catalog; this module imports no check, so the main thread can judge the two
// checks it runs itself without loading the other ~100). Order: the checks' order, then call order. It resolves each check's level (conditional levels by MCP
// revision or AdCP version, as the definition declares them), marks calls without an answer untested
// for every check that does not judge them, and turns a check that throws into `untested` with the
// error: a bug of ours (or a record we cannot read) is never the seller's failure, nor a pass.
import type { AgentCapture, Exchange } from '../record/exchange.ts';
import type { AgentCheck, Check, CheckContext, ExchangeCheck, Level, Outcome, SeverityRule, Verdict } from './check.ts';
import { untested } from './check.ts';
import { structuredContentTarget, LAYER_TARGETS, type LayerTarget } from '../extract/layer.ts';
import { noAnswer, adcpPayload, adcpVersionOf, auditRecord, parseVersion, viewResult } from './views.ts';
import { escapeVisible } from '../sanitize.ts';
import { placeOf, placeText } from './place.ts';
import { scenarioOf } from '../capture/scenario-facts.ts';
import { preview } from '../json.ts';

const SHOWN_CHARS = 200;

/** Seller text as one visible, bounded line (the engine's form of harness/sanitize.ts escapeVisible). */
export const sanitize = (s: string, max = SHOWN_CHARS): string => escapeVisible(s, max);

function crashed(err: unknown): Verdict {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return untested(`the check could not judge this (harness error: ${text})`);
}

type ResolvedLevel = { level: Level } | { notApplicable: string } | { untested: string };

/** AdCP `3.1` vs `3.0`: compared by major, then minor. */
function adcpAtLeast(version: { major: number; minor: number }, from: string): boolean {
  const step = parseVersion(from);
  if (!step) return false;
  return version.major > step.major || (version.major === step.major && version.minor >= step.minor);
}

function belowLevel(below: Level | { notApplicable: string }, why: string): ResolvedLevel {
  return typeof below === 'string' ? { level: below } : { notApplicable: `${below.notApplicable} (${why})` };
}

/** The level a check has for this call (or session): fixed, or read off the negotiated MCP revision / AdCP version. */
export function resolveLevel(
  rule: SeverityRule,
  protocol: unknown,
  adcp: () => { major: number; minor: number; label: string },
): ResolvedLevel {
  if (typeof rule === 'string') return { level: rule };
  if ('byMcpRevision' in rule) {
    if (typeof protocol !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(protocol)) {
      return { untested: `the negotiated MCP revision is unknown (${preview(protocol)}), and the level of this rule depends on it` };
    }
    const step = [...rule.byMcpRevision].sort((a, b) => b.from.localeCompare(a.from)).find((s) => protocol >= s.from);
    return step ? { level: step.level } : belowLevel(rule.below, `MCP ${protocol}`);
  }
  const version = adcp();
  const steps = [...rule.byAdcpVersion].sort((a, b) => {
    const pa = parseVersion(a.from);
    const pb = parseVersion(b.from);
    return (pb?.major ?? 0) - (pa?.major ?? 0) || (pb?.minor ?? 0) - (pa?.minor ?? 0);
  });
  const step = steps.find((s) => adcpAtLeast(version, s.from));
  return step ? { level: step.level } : belowLevel(rule.below, `AdCP ${version.label}`);
}

/**
 * One outcome. `tool` is the subject as reported (already escaped: see `subjectLabel`). Every outcome is
 * built as one object literal of the same shape (the judge makes one per check per call: thousands).
 */
function toOutcome(check: Check, tool: string, verdict: Verdict, resolved: ResolvedLevel, call?: number): Outcome {
  const topLevel: Level = 'level' in resolved ? resolved.level : typeof check.severity === 'string' ? check.severity : 'MUST';
  const spec = check.spec.label;
  const specUrl = check.spec.url;
  let out: Outcome;
  // A rule not in force for this call does not judge it, whatever the judge said.
  if ('notApplicable' in resolved && verdict.status !== 'untested') {
    out = {
      check: check.id,
      tool,
      spec,
      specUrl,
      status: 'not-applicable',
      severity: topLevel,
      message: escapeVisible(resolved.notApplicable, 400),
    };
  } else if ('untested' in resolved && verdict.status !== 'not-applicable') {
    out = { check: check.id, tool, spec, specUrl, status: 'untested', severity: topLevel, message: escapeVisible(resolved.untested, 400) };
  } else if (verdict.status === 'pass') {
    out = { check: check.id, tool, spec, specUrl, status: 'pass', severity: topLevel, message: '' };
  } else if (verdict.status === 'not-applicable' || verdict.status === 'untested') {
    out = {
      check: check.id,
      tool,
      spec,
      specUrl,
      status: verdict.status,
      severity: topLevel,
      message: escapeVisible(String(verdict.reason), 400),
    };
  } else {
    // A pointer into the harness's own capture record is said in words (place.ts); one into the seller's answer stays.
    const place = placeOf(String(verdict.pointer));
    const pointer = place.pointer === undefined ? undefined : escapeVisible(place.pointer, 300);
    const expected = escapeVisible(String(verdict.expected), 300);
    const found = escapeVisible(String(verdict.found));
    out = {
      check: check.id,
      tool,
      spec,
      specUrl,
      status: topLevel === 'MUST' ? 'fail' : 'warn',
      severity: topLevel,
      message: `${placeText({ ...place, ...(pointer !== undefined ? { pointer } : {}) })}: expected ${expected}; found ${found}`,
      ...(pointer !== undefined ? { pointer } : {}),
      expected,
      found,
      fix: check.fix,
    };
    // Schema error pointers and values carry the seller's own keys and strings: escaped like the rest.
    if (verdict.schemaErrors) {
      out.schemaErrors = verdict.schemaErrors.map((e) => ({
        pointer: escapeVisible(String(e.pointer), 300),
        keyword: escapeVisible(String(e.keyword), 60),
        expected: escapeVisible(String(e.expected), 300),
        found: escapeVisible(String(e.found), 300),
      }));
    }
    if (verdict.schemaErrorsOmitted) out.schemaErrorsOmitted = verdict.schemaErrorsOmitted;
    if (Array.isArray(verdict.related)) out.related = verdict.related.filter((n) => Number.isSafeInteger(n) && n >= 0).slice(0, 8);
    // An agent check pointing into one call of the session (a scenario step): that call carries the evidence.
    const step = call === undefined ? /^\/exchanges\/(\d+)(?:\/|$)/.exec(String(verdict.pointer)) : null;
    if (step) call = Number(step[1]);
  }
  if (call !== undefined) out.call = call;
  // The failed precondition, on the judged call unless the judge named another (scenario steps, replays).
  if (out.status === 'untested' && verdict.status === 'untested' && verdict.blockedBy !== undefined) {
    const at = verdict.blockedBy.call ?? call;
    out.blockedBy = at === undefined ? { check: String(verdict.blockedBy.check) } : { check: String(verdict.blockedBy.check), call: at };
  }
  return out;
}

/** A subject (tool name or session label) as outcomes report it: one visible, bounded line. */
function subjectLabel(subject: string): string {
  return escapeVisible(subject, 128);
}

/** The level of a check whose severity is fixed, made once per check (not once per call). */
function fixedLevel(check: Check): ResolvedLevel | undefined {
  return typeof check.severity === 'string' ? { level: check.severity } : undefined;
}

function levelForExchange(check: Check, x: Exchange, ctx: CheckContext): ResolvedLevel {
  try {
    return resolveLevel(check.severity, x.protocolVersion, () => {
      const v = viewResult(x);
      const payload = v.kind === 'success' ? adcpPayload(v.result) : null;
      return adcpVersionOf(payload?.data ?? null, ctx);
    });
  } catch (err) {
    return {
      untested: `the level of this rule could not be resolved (harness error: ${err instanceof Error ? err.message : String(err)})`,
    };
  }
}

function levelForSession(check: Check, capture: AgentCapture, ctx: CheckContext): ResolvedLevel {
  const protocol = capture.initialize?.ok ? capture.initialize.protocolVersion : undefined;
  return resolveLevel(check.severity, protocol, () => adcpVersionOf(null, ctx));
}

function runExchangeCheck(check: ExchangeCheck, x: Exchange, ctx: CheckContext): Verdict {
  try {
    if (x.outcome?.kind === 'transport-error' && !check.judgesUnanswered) return noAnswer();
    return check.judge(x, ctx);
  } catch (err) {
    return crashed(err);
  }
}

function runAgentCheck(check: AgentCheck, capture: AgentCapture, ctx: CheckContext): Array<{ subject: string; verdict: Verdict }> {
  try {
    return check.judge(capture, ctx);
  } catch (err) {
    return [{ subject: 'agent', verdict: crashed(err) }];
  }
}

function runSessionVerdicts(check: ExchangeCheck, capture: AgentCapture, ctx: CheckContext): Array<{ subject: string; verdict: Verdict }> {
  try {
    return check.judgeSession ? check.judgeSession(capture, ctx) : [];
  } catch (err) {
    return [{ subject: 'session', verdict: crashed(err) }];
  }
}

/** The tool name to report an exchange under — the deliberately invalid call and the steps of a
 *  business-rule scenario are labelled as such, so `error.validation › get_products (invalid input)` or
 *  `envelope.context-echo › get_products (pagination: page-2)` is not mistaken for the valid probe. A
 *  malformed record never throws here. */
export function toolName(x: Exchange): string {
  try {
    if (typeof x.via === 'string' && x.via !== '') return `${String(x.tool)} (${x.via})`;
    const scenario = scenarioOf(x);
    if (scenario) return `${String(x.tool)} (${scenario.name}: ${scenario.step})`;
    return x.intent === 'invalid' ? `${String(x.tool)} (invalid input)` : String(x.tool);
  } catch {
    return '(unreadable)';
  }
}

/** Every outcome of `checks` on one agent: their order, then call order. `select` narrows the checks run. */
export function judgeChecks(
  checks: readonly Check[],
  capture: AgentCapture,
  ctx: CheckContext,
  select?: (checkId: string) => boolean,
): Outcome[] {
  const context: CheckContext = {
    schemas: ctx.schemas,
    agent: ctx.agent ?? capture.agent,
    ...(ctx.baseline ? { baseline: ctx.baseline } : {}),
  };
  const exchanges = Array.isArray(capture.exchanges) ? capture.exchanges : [];
  // Each call's reported label, made once per call rather than once per check and call.
  let labels: string[] | undefined;
  const outcomes: Outcome[] = [];
  for (const check of checks) {
    if (select && !select(check.id)) continue;
    if (check.scope === 'agent') {
      const level = levelForSession(check, capture, context);
      for (const { subject, verdict } of runAgentCheck(check, capture, context))
        outcomes.push(toOutcome(check, subjectLabel(String(subject)), verdict, level));
      continue;
    }
    labels ??= exchanges.map((x) => subjectLabel(toolName(x)));
    const fixed = fixedLevel(check);
    for (let call = 0; call < exchanges.length; call++) {
      const x = exchanges[call]!;
      const verdict = runExchangeCheck(check, x, context);
      outcomes.push(toOutcome(check, labels[call]!, verdict, fixed ?? levelForExchange(check, x, context), call));
    }
    if (exchanges.length === 0) {
      const verdict =
        capture.initialize?.ok === false ? untested('initialize failed: see transport.initialize') : untested('no tools/call was made');
      outcomes.push(toOutcome(check, '(no calls)', verdict, { level: typeof check.severity === 'string' ? check.severity : 'MUST' }));
    }
    const level = levelForSession(check, capture, context);
    for (const { subject, verdict } of runSessionVerdicts(check, capture, context))
      outcomes.push(toOutcome(check, subjectLabel(String(subject)), verdict, level));
  }
  return outcomes;
}

/**
 * The structured-content layer's branch counts: one per tools/call result that is not an error (isError absent or false),
 * whatever the tool — tools without an outputSchema count too (metaIdTool false → validate_root or
 * missing). Reports print all four so legacy_wrapper is never folded into validate_root.
 */
export function layerCounts(capture: AgentCapture): Record<LayerTarget, number> {
  const counts = Object.fromEntries(LAYER_TARGETS.map((t) => [t, 0])) as Record<LayerTarget, number>;
  const ctx: CheckContext = { agent: capture.agent };
  for (const x of Array.isArray(capture.exchanges) ? capture.exchanges : []) {
    try {
      const v = viewResult(x);
      if (v.kind !== 'success') continue;
      counts[structuredContentTarget(auditRecord(x, ctx), v.result)]++;
    } catch {
      // a malformed record (bad recording) is not a call result: not counted
    }
  }
  return counts;
}
