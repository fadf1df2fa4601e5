// The run in one headline and one gate line, said the same way by every report. The headline counts
// verdicts ("2 nonconformant · 1 unreachable (connection refused)"); the gate line states what decided
// the exit code, computed by gateExitCode itself — the exit code and the line cannot disagree.
import { catalogCounts } from './counts.ts';
import {
  agentVerdict,
  baselineUse,
  configErrorsOf,
  gateExitCode,
  regressionCount,
  runVerdict,
  verdictText,
  type AgentReport,
  type DownCause,
  type RunReport,
  type Verdict,
  type VerdictLabel,
} from './model.ts';

const DOWN_WORDS: Record<DownCause, string> = {
  'connection-refused': 'connection refused',
  dns: 'host not found',
  tls: 'TLS error',
  'http-status': 'HTTP error status',
  timeout: 'timed out',
  'command-not-found': 'command not found',
  'not-executable': 'command not executable',
  exited: 'exited',
  protocol: 'protocol error',
  other: 'could not connect',
};

/** Why a seller is down, in two or three words (`connection refused`): the table's verdict cell, the headline. */
export function downWords(cause: DownCause): string {
  return DOWN_WORDS[cause] ?? cause;
}

/** What the table shows for an agent: `down: connection refused` when it could not be reached and why is known, else its verdict label. */
export function verdictCell(a: AgentReport, strict: boolean): string {
  return !a.reachable && a.down ? `down: ${downWords(a.down.cause)}` : verdictLabel(a, strict);
}

/** An agent's verdict, `conformant with baseline` when it is conformant only because baselined failures were excused. */
export function verdictLabel(a: AgentReport, strict: boolean): VerdictLabel {
  const verdict: Verdict = agentVerdict(a, strict);
  return verdict === 'conformant' && catalogCounts(a).baselined > 0 ? 'conformant with baseline' : verdict;
}

/** The run's verdict label: `conformant with baseline` when it is conformant and any agent's baselined failures were excused. */
export function runVerdictLabel(report: RunReport): VerdictLabel {
  const verdict = runVerdict(report);
  return verdict === 'conformant' && report.agents.some((a) => catalogCounts(a).baselined > 0) ? 'conformant with baseline' : verdict;
}

/** How an agent counts in the headline: unreachable, or its verdict label. */
export function tallyLabel(a: AgentReport, strict: boolean): string {
  return a.reachable ? verdictLabel(a, strict) : 'unreachable';
}

/** Worst first; a label not listed here (a verdict added later) comes after them. */
const TALLY_ORDER = ['nonconformant', 'unreachable', 'incomplete', 'conformant with baseline', 'conformant'];

export interface TallyEntry {
  label: string;
  count: number;
}

export function verdictTally(report: RunReport): TallyEntry[] {
  const counts = new Map<string, number>();
  for (const a of report.agents) {
    const label = tallyLabel(a, report.strict);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const rank = (l: string) => (TALLY_ORDER.includes(l) ? TALLY_ORDER.indexOf(l) : TALLY_ORDER.length);
  return [...counts].map(([label, count]) => ({ label, count })).sort((x, y) => rank(x.label) - rank(y.label));
}

/** `2 nonconformant · 1 unreachable (connection refused)`. */
export function tallyText(report: RunReport, separator = ' · '): string {
  return verdictTally(report)
    .map(({ label, count }) => `${count} ${label}${label === 'unreachable' ? downCauses(report) : ''}`)
    .join(separator);
}

function downCauses(report: RunReport): string {
  const causes = [...new Set(report.agents.flatMap((a) => (!a.reachable && a.down ? [downWords(a.down.cause)] : [])))];
  return causes.length ? ` (${causes.join(', ')})` : '';
}

/**
 * The run's headline without its mark: "2 agents conformant to AdCP 3.0 per …" when every agent has
 * the same clean verdict, else "3 agents: 2 nonconformant · 1 unreachable (…) — incomplete: …".
 */
export function headline(report: RunReport, harnessVersion: string): { verdict: Verdict; text: string } {
  const verdict = runVerdict(report);
  const versions = [...new Set(report.agents.map((a) => a.adcpVersion).filter((v): v is string => v !== null && v !== 'none'))];
  const baselined = report.agents.reduce((n, a) => n + catalogCounts(a).baselined, 0);
  const qualified = verdictText(verdict, versions.length === 1 ? (versions[0] ?? null) : null, harnessVersion, baselined);
  const each = versions.length > 1 ? ' (each to the AdCP version in its row)' : '';
  const strict = report.strict ? ' (strict)' : '';
  const n = report.agents.length;
  const tally = verdictTally(report);
  const only = tally.length === 1 ? tally[0]?.label : undefined;
  const many = n > 1 ? `${n} agents ` : '';
  // Every agent the same, and reached: the qualified verdict says it all.
  if (report.cutShort === null && only !== undefined && only !== 'unreachable') {
    const baseline = only === 'conformant with baseline' && !/baseline/.test(qualified) ? ', with baseline' : '';
    return { verdict, text: `${many}${qualified}${each}${strict}${baseline}` };
  }
  const counted = n === 0 ? 'no agents' : n === 1 ? tallyText(report).replace(/^1 /, '') : `${n} agents: ${tallyText(report)}`;
  return { verdict, text: `${counted} — ${qualified}${each}${report.cutShort !== null ? ' (run cut short)' : ''}${strict}` };
}

export interface Gate {
  exitCode: 0 | 1 | 2 | 3;
  pass: boolean;
  /** `gate: FAIL — 2 nonconformant, 1 unreachable (exit 3)`. */
  text: string;
}

/** The gate that decided the exit code, in one line: the last line of the terminal summary. */
export function gate(report: RunReport): Gate {
  const exitCode = gateExitCode(report);
  const pass = exitCode === 0;
  const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  let why: string;
  const configErrors = configErrorsOf(report).length;
  if (exitCode === 2 && configErrors) why = `${plural(configErrors, 'config error')} found during the run`;
  else if (report.failOn === 'regressions' && report.comparison) {
    const n = regressionCount(report.comparison);
    why = report.cutShort !== null ? 'run cut short' : n ? `${plural(n, 'regression')} since the compared run` : 'no regressions';
  } else if (pass) {
    why = tallyText(report, ', ') + (report.strict ? ' (strict)' : '');
    if (report.agents.length === 1 || verdictTally(report).length === 1) why = why.replace(/^\d+ /, '');
  } else {
    const failing = verdictTally(report)
      .filter((t) => !t.label.startsWith('conformant'))
      .map((t) => `${t.count} ${t.label}`);
    if (report.cutShort !== null) failing.push('run cut short');
    why = failing.join(', ') || 'no agents judged';
  }
  const use = baselineUse(report);
  const baselined = report.agents.reduce((n, a) => n + catalogCounts(a).baselined, 0);
  const baseline =
    use.state === 'applied' && baselined
      ? `; ${plural(baselined, 'baselined failure')} not counted`
      : use.state === 'ignored'
        ? '; baselines ignored (--no-baseline)'
        : '';
  return { exitCode, pass, text: `gate: ${pass ? 'PASS' : 'FAIL'} — ${why}${baseline} (exit ${exitCode})` };
}
