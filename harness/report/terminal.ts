// The terminal summary printed after a run: a table agent × verdict / AdCP / counts, then one block per
// failure (check id, tool, JSON pointer, expected vs found, the seller's answer, diagnosis, fix, spec). Strings are already sanitized
// (no control characters, so no seller-made escape sequences); colour only when asked.
import {
  agentVerdict,
  baselineUse,
  configErrorsOf,
  countOutcomes,
  failsRun,
  incompleteReason,
  leavesUnverified,
  regressionCount,
  runVerdict,
  storyboardCounts,
  storyboardScope,
  verdictText,
  type AgentReport,
  type Comparison,
  type ReportOutcome,
  type RunReport,
} from './model.ts';
import { changeRows, comparisonHeadline } from './compare.ts';
import { evidenceLines } from './evidence-text.ts';
import { HARNESS_VERSION } from '../version.ts';

export interface Paint {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const sgr = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
export const colours: Paint = { red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
const id = (s: string) => s;
export const plain: Paint = { red: id, green: id, yellow: id, dim: id, bold: id };

/** Colour for a stream: a TTY, and NO_COLOR unset or empty (https://no-color.org). */
export function paintFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Paint {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return stream.isTTY === true && !noColor ? colours : plain;
}

export function renderTerminalSummary(report: RunReport, paint: Paint = plain): string {
  const header = ['agent', 'verdict', 'AdCP', 'pass', 'fail', 'warn', 'untested', 'n/a', 'baselined'];
  const rows = report.agents.map((a) => {
    const c = countOutcomes(a.outcomes);
    const adcp = a.adcpVersion && a.adcpVersion !== 'none' ? a.adcpVersion : '—';
    return [
      a.name,
      agentVerdict(a, report.strict),
      adcp,
      String(c.pass),
      String(c.fail),
      String(c.warn),
      String(c.untested),
      String(c.notApplicable),
      String(c.baselined),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const cell = (text: string, i: number) => (i < 3 ? text.padEnd(widths[i] ?? 0) : text.padStart(widths[i] ?? 0));
  const colour = (verdict: string) => (verdict === 'conformant' ? paint.green : verdict === 'nonconformant' ? paint.red : paint.yellow);
  // The comparison opens the summary: what changed since last night comes before everything else.
  const out: string[] = [
    ...(report.comparison ? comparisonBlock(report.comparison, paint) : []),
    '',
    paint.bold(header.map(cell).join('  ')),
  ];
  for (const [n, r] of rows.entries()) {
    const a = report.agents[n];
    out.push(r.map((text, i) => (i === 1 ? colour(text)(cell(text, i)) : cell(text, i))).join('  '));
    if (a?.adcpVersionReason) out.push(`  ${paint.dim(`AdCP ${a.adcpVersion ?? '—'}: ${a.adcpVersionReason}`)}`);
    const why = a ? incompleteReason(a, report.strict) : null;
    if (why !== null) out.push(`  ${paint.yellow(`incomplete: ${why}`)}`);
    if (a?.stderrTail) out.push(`  ${paint.dim(`stderr: ${a.stderrTail}`)}`);
  }

  const failures = report.agents.flatMap((a) => a.outcomes.filter((o) => failsRun(o, report.strict) && !o.flaky).map((o) => ({ a, o })));
  if (failures.length) {
    out.push('', paint.bold(`Failures (${failures.length})`));
    for (const { a, o } of failures) out.push(...block(a, o, paint.red('✗'), paint));
  }
  const flaky = report.agents.flatMap((a) => a.outcomes.filter((o) => failsRun(o, report.strict) && o.flaky).map((o) => ({ a, o })));
  if (flaky.length) {
    out.push(
      '',
      paint.bold(`Flaky (${flaky.length}; failed, then passed when re-verified in a fresh session: still failures, never regressions)`),
    );
    for (const { a, o } of flaky) out.push(...block(a, o, paint.yellow('≈'), paint));
  }
  const warnings = report.agents.flatMap((a) =>
    a.outcomes.filter((o) => o.status === 'warn' && !failsRun(o, report.strict) && o.baseline === undefined).map((o) => ({ a, o })),
  );
  if (warnings.length) {
    out.push('', paint.bold(`Warnings, SHOULD (${warnings.length}; fail only under --strict)`));
    for (const { a, o } of warnings) out.push(...block(a, o, paint.yellow('!'), paint));
  }
  const unverified = report.agents.flatMap((a) =>
    (a.reachable ? a.outcomes : []).filter((o) => leavesUnverified(o, report.strict)).map((o) => ({ a, o })),
  );
  if (unverified.length) {
    out.push('', paint.bold(`Not verified (${unverified.length}; applicable checks that could not be judged)`));
    for (const { a, o } of unverified.slice(0, UNVERIFIED_SHOWN))
      out.push(`  ${paint.yellow('?')} ${a.name}  ${o.check} › ${o.tool}  ${paint.dim(o.message)}`);
    if (unverified.length > UNVERIFIED_SHOWN) out.push(`  … ${unverified.length - UNVERIFIED_SHOWN} more in report.json`);
  }
  out.push(...storyboardLines(report, paint));
  const baselined = report.agents.flatMap((a) =>
    a.outcomes.filter((o) => o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn')).map((o) => ({ a, o })),
  );
  if (baselined.length) {
    out.push('', paint.bold(`Expected failures from the baseline (${baselined.length}; not counted)`));
    for (const { a, o } of baselined)
      out.push(`  ${paint.dim('~')} ${a.name}  ${o.check} › ${o.tool}  ${paint.dim(`baseline: ${o.baseline ?? ''}`)}`);
  }
  if (report.cutShort) out.push('', paint.yellow(`Run cut short: ${report.cutShort}`));
  const configErrors = configErrorsOf(report);
  if (configErrors.length) {
    out.push('', paint.bold(paint.red(`Config errors (${configErrors.length}; exit 2: fix the config)`)));
    for (const e of configErrors) out.push(`  ${paint.red('✗')} ${e}`);
  }
  out.push('', paint.dim(baselineUse(report).text));
  if (report.failOn === 'regressions' && report.comparison) {
    const n = regressionCount(report.comparison);
    out.push(
      n
        ? paint.red(`--fail-on regressions: ${n} regression${n === 1 ? '' : 's'} (new failures and newly unreachable agents)`)
        : paint.green('--fail-on regressions: no regression since the compared run'),
    );
  }
  out.push('', verdictLine(report, paint), '');
  return out.join('\n');
}

const UNVERIFIED_SHOWN = 20;
const STORYBOARD_FAILURES_SHOWN = 20;

/** The official storyboards: counts per agent and the failures (advisory unless --strict-storyboards). */
function storyboardLines(report: RunReport, paint: Paint): string[] {
  const sb = report.run?.storyboards;
  const rows = report.agents.map((a) => ({ a, c: storyboardCounts(a) })).filter((r) => r.c !== null);
  if (!sb && !rows.length) return [];
  const how = sb?.strict ? 'counted: --strict-storyboards' : 'advisory: not in the verdict';
  const out = [
    '',
    paint.bold(`Storyboards ${sb?.selection ?? ''} (AdCP storyboard corpus ${sb?.corpusVersion ?? '?'}; ${how})`),
    `  the corpus ${storyboardScope(sb?.corpusVersion ?? '?')}`,
  ];
  for (const { a, c } of rows) out.push(`  ${a.name}  ${c!.pass} pass, ${c!.fail} fail, ${c!.untested} untested, ${c!.notApplicable} n/a`);
  const failed = report.agents.flatMap((a) =>
    a.outcomes.filter((o) => o.check.startsWith('storyboard.') && o.status === 'fail').map((o) => ({ a, o })),
  );
  for (const { a, o } of failed.slice(0, STORYBOARD_FAILURES_SHOWN))
    out.push(`  ${paint.yellow('✗')} ${a.name}  ${o.check} › ${o.tool}  ${paint.dim(o.message)}`);
  if (failed.length > STORYBOARD_FAILURES_SHOWN) out.push(`  … ${failed.length - STORYBOARD_FAILURES_SHOWN} more in report.json`);
  return out;
}
/** Changes listed in the terminal per kind; the rest are in report.json and report.html. */
const CHANGES_SHOWN = 30;

const CHANGE_MARK: Record<string, string> = {
  'new failure': '+',
  'newly unreachable': '↓',
  fixed: '✓',
  flaky: '≈',
  'back online': '↑',
  'agent added': '+',
  'agent removed': '-',
};

function comparisonBlock(c: Comparison, paint: Paint): string[] {
  const out = ['', paint.bold(comparisonHeadline(c))];
  const shown = new Map<string, number>();
  const rows = changeRows(c);
  for (const row of rows) {
    const n = (shown.get(row.kind.label) ?? 0) + 1;
    shown.set(row.kind.label, n);
    if (n > CHANGES_SHOWN) continue;
    const colour = row.kind.regression
      ? paint.red
      : row.kind.label === 'fixed' || row.kind.label === 'back online'
        ? paint.green
        : paint.yellow;
    const what = [row.agent, row.what].filter(Boolean).join('  ');
    out.push(
      `  ${colour(`${CHANGE_MARK[row.kind.label] ?? '·'} ${row.kind.label.padEnd(17)}`)} ${what}${row.message ? `  ${paint.dim(row.message)}` : ''}`,
    );
  }
  for (const [label, n] of shown) if (n > CHANGES_SHOWN) out.push(`  … ${n - CHANGES_SHOWN} more ${label} entries in report.json`);
  return out;
}

function block(a: AgentReport, o: ReportOutcome, mark: string, paint: Paint): string[] {
  const lines = [`  ${mark} ${a.name}  ${paint.bold(o.check)} › ${o.tool}  ${paint.dim(`[${o.severity}]`)}`];
  for (const line of evidenceLines(o)) {
    const dim = line.startsWith('spec:') || line.startsWith('duration:');
    lines.push(`      ${dim ? paint.dim(line) : line}`);
  }
  return lines;
}

/** The run's verdict, qualified by what it was measured against. */
function verdictLine(report: RunReport, paint: Paint): string {
  const verdict = runVerdict(report);
  const harness = report.run?.harnessVersion ?? HARNESS_VERSION;
  const versions = [...new Set(report.agents.map((a) => a.adcpVersion).filter((v): v is string => v !== null && v !== 'none'))];
  const adcp = versions.length === 1 ? (versions[0] ?? null) : null;
  const many = report.agents.length > 1 ? `${report.agents.length} agents ` : '';
  const each = versions.length > 1 ? ' (each to the AdCP version in its row)' : '';
  const text = verdictText(verdict, adcp, harness);
  if (verdict === 'conformant') return paint.green(`✓ ${many}${text}${each}`) + (report.strict ? ' (strict)' : '');
  if (verdict === 'nonconformant') return paint.red(`✗ ${many}${text}${each}`);
  return paint.yellow(`⚠ ${text}: an agent could not be reached or fully verified, or the run was cut short`);
}
