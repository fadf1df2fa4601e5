// The check engine: runs the catalog over one agent's capture and turns verdicts into outcomes.
// Order: catalog order, then call order. A check that throws becomes a failure of that check
// ("check crashed: …"); a hostile seller never crashes the run.
import type { AgentCapture, Exchange } from '../capture/exchange.ts';
import type { AgentCheck, Check, CheckContext, ExchangeCheck, Outcome, Severity, Verdict } from './check.ts';
import { skip } from './check.ts';
import { catalog } from './catalog.ts';
import { structuredContentTarget, LAYER_TARGETS, type LayerTarget } from '../extract/layer.ts';
import { NO_ANSWER, auditRecord, viewResult } from './views.ts';

/** Checks that still judge a call that got no answer (transport-error). */
const JUDGES_NO_ANSWER = new Set(['transport.call', 'envelope.size']);

const SHOWN_CHARS = 200;

/** Seller text made safe for one line: control / bidi characters escaped, length bounded. */
export function sanitize(s: string, max = SHOWN_CHARS): string {
  // eslint-disable-next-line no-control-regex
  const escaped = s.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}

function crashed(err: unknown): Verdict {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return { status: 'fail', pointer: '', expected: 'the check to run', found: `check crashed: ${text}` };
}

function toOutcome(check: Check, tool: string, verdict: Verdict): Outcome {
  const base = { check: check.id, tool: sanitize(tool, 128), spec: check.spec };
  switch (verdict.status) {
    case 'pass':
      return { ...base, status: 'pass', severity: check.severity, message: '' };
    case 'skip':
      return { ...base, status: 'skip', severity: check.severity, message: sanitize(String(verdict.reason), 400) };
    case 'fail': {
      const severity: Severity = verdict.severity ?? check.severity;
      const pointer = sanitize(String(verdict.pointer), 300);
      const expected = sanitize(String(verdict.expected), 300);
      const found = sanitize(String(verdict.found));
      const crash = found.startsWith('check crashed: ');
      return {
        ...base,
        // A crash is our fault, not a SHOULD-level seller finding: it always fails.
        status: severity === 'MUST' || crash ? 'fail' : 'warn',
        severity,
        message: crash ? found : `at ${pointer || '/'}: expected ${expected}; found ${found}`,
        pointer,
        expected,
        found,
      };
    }
  }
}

function runExchangeCheck(check: ExchangeCheck, x: Exchange, ctx: CheckContext): Verdict {
  try {
    if (x.outcome?.kind === 'transport-error' && !JUDGES_NO_ANSWER.has(check.id)) return skip(NO_ANSWER);
    return check.run(x, ctx);
  } catch (err) {
    return crashed(err);
  }
}

function runAgentCheck(check: AgentCheck, capture: AgentCapture, ctx: CheckContext): Array<{ subject: string; verdict: Verdict }> {
  try {
    return check.run(capture, ctx);
  } catch (err) {
    return [{ subject: 'agent', verdict: crashed(err) }];
  }
}

/** The tool name to report an exchange under — the deliberately invalid call is labelled as such, so
 *  `error.validation › get_products (invalid input)` is not mistaken for the valid probe. A malformed
 *  record never throws here. */
function toolName(x: Exchange): string {
  try {
    return x.intent === 'invalid' ? `${String(x.tool)} (invalid input)` : String(x.tool);
  } catch {
    return '(unreadable)';
  }
}

/** Every outcome of one agent: catalog order, then call order. `select` narrows the checks run. */
export function judgeAgent(capture: AgentCapture, ctx: CheckContext, select?: (checkId: string) => boolean): Outcome[] {
  const context: CheckContext = { schemas: ctx.schemas, agent: ctx.agent ?? capture.agent };
  const exchanges = Array.isArray(capture.exchanges) ? capture.exchanges : [];
  const outcomes: Outcome[] = [];
  for (const check of catalog) {
    if (select && !select(check.id)) continue;
    if (check.scope === 'agent') {
      for (const { subject, verdict } of runAgentCheck(check, capture, context)) outcomes.push(toOutcome(check, String(subject), verdict));
      continue;
    }
    for (const x of exchanges) outcomes.push(toOutcome(check, toolName(x), runExchangeCheck(check, x, context)));
    if (exchanges.length === 0) {
      const why = capture.initialize?.ok === false ? 'initialize failed: see transport.initialize' : 'no tools/call was made';
      outcomes.push(toOutcome(check, '(no calls)', skip(why)));
    }
    // A session cut short (agent timeout, crash) leaves calls that never ran: that is transport.call's finding.
    if (check.id === 'transport.call' && capture.aborted) {
      const f = capture.aborted;
      outcomes.push(toOutcome(check, 'session', { status: 'fail', pointer: '/aborted', expected: 'the session to run to the end', found: `${f.kind}: ${f.message}` }));
    }
  }
  return outcomes;
}

/**
 * Seed 004's branch counts: one per tools/call result that is not an error (isError absent or false),
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
