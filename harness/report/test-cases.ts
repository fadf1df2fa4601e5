// The test cases of an agent's suite (vitest, hence JUnit): ONE test case per (check, tool) pair, in
// first-seen order, aggregating every outcome of that pair — not one test case per outcome.
// Why:
//   - JUnit case names are stable across runs: CI systems track a case's history by its name, and the
//     `(2)`, `(3)` … suffixes a per-outcome case needed (one check judged on several probes of one tool,
//     business-rule scenarios) shifted whenever a probe was added or reordered;
//   - vitest's cost per test case (a task, an AbortController, listeners, a result RPC: ~0.1 ms) no longer
//     grows with the number of calls: a run of 401 calls has as many test cases as a run of 1.
// report.json, summary.md, the HTML report and the terminal read the outcomes themselves (every one of
// them), never these test cases.
// The suite (suites/agent-suite.ts), the collector and the JUnit decoration (report/junit.ts) all name
// and judge cases with testCases() below, so they always agree — also for a --merge-reports of shards.
import { evidenceLines, failureMessage } from './evidence-text.ts';
import { failsRun, type ReportOutcome } from './model.ts';

/** What a test case does: fails, passes (perhaps with notes in system-out), or is skipped with a reason. */
export type CaseStatus = 'fail' | 'pass' | 'skip';

export interface TestCase {
  /** `<check id> › <tool>`: the same every run, whatever the number or order of the calls. */
  name: string;
  check: string;
  tool: string;
  status: CaseStatus;
  /** Every outcome of the pair, in order (not-applicable ones included). */
  outcomes: ReportOutcome[];
  /** The outcomes that fail the case (fail: at least one; else empty). */
  failing: ReportOutcome[];
  /** fail: the failure message (one line) · skip: the reason (`untested: …`, `not-applicable: …`) · pass: ''. */
  message: string;
  /** Lines for system-out: warnings, expected (baselined) and advisory failures, and for a failing case what stayed untested. */
  notes: string[];
  /** The judged calls' durations added up, in ms (JUnit `time`); absent when no outcome has one (session checks). */
  durationMs?: number;
}

/** Failing calls shown in full (message and body); the rest are counted and listed by call. */
export const SHOWN_FAILURES = 5;
/** Distinct system-out lines per case; the rest are counted. */
export const SHOWN_NOTES = 10;
/** Distinct untested (or not-applicable) reasons quoted in a skip message. */
const SHOWN_REASONS = 3;
/** Call numbers listed after "… and N more failing calls". */
const LISTED_CALLS = 20;

/** The test case name of a (check, tool) pair: `<check id> › <tool>`. */
export function caseName(check: string, tool: string): string {
  return `${check} › ${tool}`;
}

/**
 * The test cases of an agent, in first-seen order: one per (check, tool). A pair whose outcomes are all
 * not-applicable is a case only with --junit-all (skipped).
 *   - a case FAILS when one of its outcomes fails the run (a fail, or a warn under --strict; baselined and
 *     advisory outcomes never do): its message lists the failing calls, bounded;
 *   - else it is SKIPPED when one of its outcomes is untested: a case is never green when part of it was
 *     not verified (this beats a warning that does not fail the run: the warning goes to system-out);
 *   - else it PASSES; warnings (not --strict), expected failures (baseline) and advisory failures are
 *     listed in its system-out.
 */
export function testCases(outcomes: readonly ReportOutcome[], junitAll: boolean, strict: boolean): TestCase[] {
  const pairs = new Map<string, ReportOutcome[]>();
  for (const o of outcomes) {
    const key = `${o.check}\u0000${o.tool}`;
    const list = pairs.get(key);
    if (list) list.push(o);
    else pairs.set(key, [o]);
  }
  const cases: TestCase[] = [];
  for (const list of pairs.values()) {
    const c = aggregate(list, junitAll, strict);
    if (c) cases.push(c);
  }
  return cases;
}

/** One (check, tool) pair's outcomes → its test case, or undefined when it is not one (all not-applicable). */
export function aggregate(outcomes: readonly ReportOutcome[], junitAll: boolean, strict: boolean): TestCase | undefined {
  const first = outcomes[0];
  if (!first) return undefined;
  let failing: ReportOutcome[] | undefined;
  let untested: ReportOutcome[] | undefined;
  let noted = false;
  let applicable = false;
  let durationMs: number | undefined;
  for (const o of outcomes) {
    if (o.durationMs !== undefined) durationMs = (durationMs ?? 0) + o.durationMs;
    if (o.status === 'pass') applicable = true;
    else if (o.status === 'untested') (untested ??= []).push(o);
    else if (o.status === 'fail' || o.status === 'warn') {
      if (failsRun(o, strict)) (failing ??= []).push(o);
      else noted = true;
    }
  }
  const base = {
    name: caseName(first.check, first.tool),
    check: first.check,
    tool: first.tool,
    outcomes: [...outcomes],
    failing: failing ?? [],
  };
  const withTime = durationMs === undefined ? {} : { durationMs };
  if (failing) {
    return { ...base, status: 'fail', message: failMessage(failing, outcomes), notes: notesOf(outcomes, strict, true), ...withTime };
  }
  if (untested) {
    return {
      ...base,
      status: 'skip',
      message: skipMessage('untested', untested, outcomes),
      notes: noted ? notesOf(outcomes, strict, false) : [],
      ...withTime,
    };
  }
  if (applicable || noted)
    return { ...base, status: 'pass', message: '', notes: noted ? notesOf(outcomes, strict, false) : [], ...withTime };
  // Every outcome is not-applicable.
  if (!junitAll) return undefined;
  return { ...base, status: 'skip', message: skipMessage('not-applicable', outcomes, outcomes), notes: [], ...withTime };
}

/** `call #12` (the 12th tools/call of the session), or `the session` for a session-level outcome. */
function callLabel(o: ReportOutcome): string {
  return o.call === undefined ? 'the session' : `call #${o.call + 1}`;
}

/** `calls` when every outcome judges a call, else `judgements` (session-level outcomes). */
function unit(outcomes: readonly ReportOutcome[], n: number): string {
  const word = outcomes.every((o) => o.call !== undefined) ? 'call' : 'judgement';
  return n === 1 ? word : `${word}s`;
}

/** One outcome: failureMessage() as it always was. Several: which calls failed, each with its diagnosis, bounded. */
function failMessage(failing: readonly ReportOutcome[], all: readonly ReportOutcome[]): string {
  const only = failing[0]!;
  if (all.length === 1) return failureMessage(only);
  const shown = failing.slice(0, SHOWN_FAILURES).map((o) => `${callLabel(o)}: ${failureMessage(o)}`);
  const more = failing.length - SHOWN_FAILURES;
  const tail = more > 0 ? ` · … and ${more} more failing ${unit(all, more)}` : '';
  return `${failing.length} of ${all.length} ${unit(all, all.length)} failed: ${shown.join(' · ')}${tail}`;
}

/** The failure body of a failing case: each shown failing call's evidence; the others listed by call. */
export function caseFailureBody(c: TestCase): string {
  const failing = c.failing;
  if (c.outcomes.length === 1 && failing[0]) return evidenceLines(failing[0]).join('\n');
  const blocks = failing
    .slice(0, SHOWN_FAILURES)
    .map((o, i) => [`── ${callLabel(o)} (${i + 1} of ${failing.length} failing)`, ...evidenceLines(o)].join('\n'));
  const rest = failing.slice(SHOWN_FAILURES);
  if (rest.length) {
    const listed = rest.slice(0, LISTED_CALLS).map(callLabel).join(', ');
    const beyond = rest.length > LISTED_CALLS ? `, … (${rest.length - LISTED_CALLS} more)` : '';
    blocks.push(`… and ${rest.length} more failing ${unit(c.outcomes, rest.length)}: ${listed}${beyond} (every one is in report.json)`);
  }
  return blocks.join('\n\n');
}

/** `untested: reason` for one outcome; for several, how many of how many, the reasons and what the rest did. */
function skipMessage(kind: 'untested' | 'not-applicable', those: readonly ReportOutcome[], all: readonly ReportOutcome[]): string {
  const reasons = distinct(
    those.map(
      (o) => `${o.message || 'no reason given'}${o.coveredBy !== undefined ? ` (covered by the baselined failure ${o.coveredBy})` : ''}`,
    ),
  );
  const quoted =
    reasons.slice(0, SHOWN_REASONS).join(' | ') +
    (reasons.length > SHOWN_REASONS ? ` | … (${reasons.length - SHOWN_REASONS} more reasons)` : '');
  if (all.length === 1) return `${kind}: ${quoted}`;
  const these = new Set(those);
  const others = statusCounts(all.filter((o) => !these.has(o)));
  return `${kind}: ${those.length} of ${all.length} ${unit(all, all.length)}: ${quoted}${others ? `; ${others}` : ''}`;
}

/** `2 passed, 1 not applicable` — what the other outcomes of a case did. */
function statusCounts(outcomes: readonly ReportOutcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const word =
      o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn')
        ? 'expected failure (baseline)'
        : o.status === 'pass'
          ? 'passed'
          : o.status === 'warn'
            ? 'warned'
            : o.status === 'fail'
              ? 'failed'
              : o.status === 'untested'
                ? 'untested'
                : 'not applicable';
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts].map(([word, n]) => `${n} ${word}`).join(', ');
}

/**
 * System-out lines: the warnings, expected and advisory failures of the case (what does not fail it), and,
 * for a failing case, what stayed untested. Identical lines are given once with their count; bounded.
 */
function notesOf(outcomes: readonly ReportOutcome[], strict: boolean, failingCase: boolean): string[] {
  const lines = new Map<string, number>();
  const add = (line: string) => lines.set(line, (lines.get(line) ?? 0) + 1);
  for (const o of outcomes) {
    if (o.status === 'untested') {
      if (failingCase) add(`untested (not verified): ${o.message || 'no reason given'}`);
      continue;
    }
    if ((o.status !== 'fail' && o.status !== 'warn') || failsRun(o, strict)) continue;
    if (o.baseline !== undefined) add(`expected failure (baseline: ${o.baseline}): ${o.status} ${failureMessage(o)}`);
    else if (o.status === 'warn' && !strict) add(`warning (SHOULD, fails only under --strict): ${failureMessage(o)}`);
    else add(`advisory (official storyboard; fails only under --strict-storyboards): ${o.status} ${failureMessage(o)}`);
  }
  const out = [...lines].slice(0, SHOWN_NOTES).map(([line, n]) => (n > 1 ? `${line} (on ${n} ${unit(outcomes, n)})` : line));
  if (lines.size > SHOWN_NOTES) out.push(`… and ${lines.size - SHOWN_NOTES} more (every outcome is in report.json)`);
  return out;
}

function distinct(texts: readonly string[]): string[] {
  return [...new Set(texts)];
}
