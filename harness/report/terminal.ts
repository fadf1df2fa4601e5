// The terminal summary printed after a run: a table agent × verdict / AdCP / counts, then one block per
// finding — a check's failures on one agent grouped across calls (where, expected vs found, the seller's
// answer, diagnosis; fix and spec once) — then the headline and, last, the gate that decided the exit
// code. Strings are already sanitized (no control characters, so no seller-made escape sequences);
// colour only when asked.
import {
  baselineUse,
  configErrorsOf,
  incompleteReason,
  regressionCount,
  storyboardCounts,
  storyboardScope,
  type AgentReport,
  type Comparison,
  type RunReport,
} from './model.ts';
import { accountLine, createdHeading, createdText, ENABLE_STATE_RULES, outOfReachLine } from './sandbox-notes.ts';
import { deliveryText, traceCallText, webhookHeading } from './task-notes.ts';
import { changeRows, comparisonHeadline } from './compare.ts';
import { callEvidenceLines, ruleLines } from './evidence-text.ts';
import {
  baselineReasons,
  callList,
  groupSpread,
  groupTitle,
  sectionCounts,
  shortDetail,
  VARIANTS_SHOWN,
  type FindingGroup,
  type FindingKind,
  type FindingSection,
} from './findings.ts';
import { downWords, verdictCell } from './gate.ts';
import { agentSummary, summarize, type RunSummary } from './summary.ts';

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

export interface TerminalOptions {
  /** `--quiet`: the verdict table, one line per failing check, the headline and the gate. */
  quiet?: boolean;
  /** The report files written, listed before the headline (the gate stays the last line). */
  reports?: readonly string[];
  /** summarize(report), when the caller has it already (one run renders several forms of it). */
  summary?: RunSummary;
}

export function renderTerminalSummary(report: RunReport, paint: Paint = plain, options: TerminalOptions = {}): string {
  const quiet = options.quiet === true;
  const summary = options.summary ?? summarize(report);
  const header = ['agent', 'verdict', 'AdCP', 'pass', 'fail', 'warn', 'untested', 'n/a', 'baselined'];
  const rows = report.agents.map((a) => {
    const c = agentSummary(summary, a).counts;
    const adcp = a.adcpVersion && a.adcpVersion !== 'none' ? a.adcpVersion : '—';
    return [
      a.name,
      verdictCell(a, report.strict),
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
  const colour = (verdict: string) =>
    verdict.startsWith('conformant') ? paint.green : verdict === 'nonconformant' ? paint.red : paint.yellow;
  // The comparison opens the summary: what changed since last night comes before everything else.
  const out: string[] = [
    ...(report.comparison && !quiet ? comparisonBlock(report.comparison, paint) : []),
    '',
    paint.bold(header.map(cell).join('  ')),
  ];
  for (const [n, r] of rows.entries()) {
    const a = report.agents[n];
    out.push(r.map((text, i) => (i === 1 ? colour(text)(cell(text, i)) : cell(text, i))).join('  '));
    if (!a) continue;
    if (a.adcpVersionReason && !quiet) out.push(`  ${paint.dim(`AdCP ${a.adcpVersion ?? '—'}: ${a.adcpVersionReason}`)}`);
    if (!a.reachable && a.down) out.push(`  ${paint.yellow(`down: ${a.down.detail}`)}`, `  ${paint.dim(`fix:  ${a.down.fix}`)}`);
    else {
      const why = incompleteReason(a, report.strict);
      if (why !== null) out.push(`  ${paint.yellow(`incomplete: ${why}`)}`);
    }
    if (a.stderrTail && !quiet) out.push(`  ${paint.dim(`stderr: ${a.stderrTail}`)}`);
    if (!quiet) out.push(...sandboxLines(a, paint), ...taskLines(a, paint));
  }

  const sections = summary.findings;
  const section = (kind: FindingKind) => sections.find((s) => s.kind === kind)!;
  if (quiet) out.push(...quietLines(sections, report.strict, paint));
  else {
    const fail = section('fail');
    if (fail.groups.length) {
      out.push('', paint.bold(`Failures (${sectionCounts(fail)})`));
      for (const g of fail.groups) out.push(...groupBlock(g, paint.red('✗'), paint));
    }
    const flaky = section('flaky');
    if (flaky.groups.length) {
      out.push(
        '',
        paint.bold(
          `Flaky (${sectionCounts(flaky)}; failed, then passed when re-verified in a fresh session: still failures, never regressions)`,
        ),
      );
      for (const g of flaky.groups) out.push(...groupBlock(g, paint.yellow('≈'), paint));
    }
    const warn = section('warn');
    if (warn.groups.length) {
      const how = report.strict ? 'failing the run: --strict' : 'fail only under --strict';
      out.push('', paint.bold(`Warnings, SHOULD (${sectionCounts(warn)}; ${how})`));
      for (const g of warn.groups) out.push(...groupBlock(g, report.strict ? paint.red('!') : paint.yellow('!'), paint));
    }
    out.push(...untestedLines(section('untested'), summary.openUnverified, paint));
    out.push(...storyboardLines(report, summary.storyboardFailures, paint));
    const baselined = section('baselined');
    if (baselined.groups.length) {
      out.push('', paint.bold(`Expected failures from the baseline (${sectionCounts(baselined)}; not counted)`));
      for (const g of baselined.groups) {
        const spread = groupSpread(g);
        out.push(
          `  ${paint.dim('~')} ${g.agent.name}  ${groupTitle(g)}  ${paint.dim(`baseline: ${baselineReasons(g)}`)}${spread ? `  ${paint.dim(`(${spread})`)}` : ''}`,
        );
      }
    }
    const covered = section('covered');
    if (covered.groups.length) {
      out.push('', paint.bold(`Left untested by a baselined failure (${sectionCounts(covered)}; covered by the baseline)`));
      for (const g of covered.groups) {
        const spread = groupSpread(g);
        out.push(
          `  ${paint.dim('~')} ${g.agent.name}  ${groupTitle(g)}${spread ? `  ${spread}` : ''}  ${paint.dim(`behind ${g.outcomes[0]?.coveredBy ?? ''}`)}`,
        );
      }
    }
  }
  if (report.cutShort) out.push('', paint.yellow(`Run cut short: ${report.cutShort}`));
  const configErrors = configErrorsOf(report);
  if (configErrors.length) {
    out.push('', paint.bold(paint.red(`Config errors (${configErrors.length}; exit 2: fix the config)`)));
    for (const e of configErrors) out.push(`  ${paint.red('✗')} ${e}`);
  }
  if (!quiet) out.push('', paint.dim(baselineUse(report).text));
  if (report.failOn === 'regressions' && report.comparison) {
    const n = regressionCount(report.comparison);
    out.push(
      n
        ? paint.red(`--fail-on regressions: ${n} regression${n === 1 ? '' : 's'} (new failures and newly unreachable agents)`)
        : paint.green('--fail-on regressions: no regression since the compared run'),
    );
  }
  if (options.reports?.length) out.push(paint.dim(`reports: ${options.reports.join(', ')}`));
  const g = summary.gate;
  out.push('', verdictLine(summary, paint), g.pass ? paint.green(g.text) : paint.red(g.text), '');
  return out.join('\n');
}

/** Created objects listed per agent in the terminal; the rest are in report.json. */
const CREATED_SHOWN = 10;

/** The agent's account, its state rules out of reach (one grouped line and how to enable them), what its flows created. */
function sandboxLines(a: AgentReport, paint: Paint): string[] {
  const out: string[] = [];
  const account = accountLine(a);
  if (account) out.push(`  ${paint.dim(account)}`);
  const reach = outOfReachLine(a);
  if (reach) out.push(`  ${paint.yellow(reach)}`, `  ${paint.dim(ENABLE_STATE_RULES)}`);
  const heading = createdHeading(a);
  if (heading) {
    const created = a.created ?? [];
    out.push(`  ${heading}`, ...created.slice(0, CREATED_SHOWN).map((c) => `    · ${createdText(c)}`));
    const more = Math.max(0, created.length - CREATED_SHOWN) + (a.createdOmitted ?? 0);
    if (more > 0) out.push(`    … ${more} more in report.json`);
  }
  return out;
}

/** Deliveries listed per agent in the terminal; the rest are in the other reports. */
const DELIVERIES_SHOWN = 10;

/** The task lifecycle flow call by call (its status in a word), and each webhook delivery with its signature. */
function taskLines(a: AgentReport, paint: Paint): string[] {
  const out: string[] = [];
  if (a.taskTrace) out.push(`  ${a.taskTrace.text}`, ...a.taskTrace.calls.map((c) => `    · ${traceCallText(c)}`));
  const w = a.webhooks;
  if (w) {
    out.push(`  ${webhookHeading(w)}`);
    for (const d of w.deliveries.slice(0, DELIVERIES_SHOWN)) {
      const line = `    · ${deliveryText(d)}`;
      out.push(d.verification?.ok === false ? paint.red(line) : line);
    }
    const more = Math.max(0, w.deliveries.length - DELIVERIES_SHOWN) + w.omitted;
    if (more > 0) out.push(`    … ${more} more in report.json`);
  }
  return out;
}

/** `--quiet`: one line per failing check (warnings too under --strict), each with its spread and what went wrong. */
function quietLines(sections: readonly FindingSection[], strict: boolean, paint: Paint): string[] {
  const failing = sections.filter((s) => s.kind === 'fail' || s.kind === 'flaky' || (strict && s.kind === 'warn'));
  const lines = failing.flatMap((s) =>
    s.groups.map((g) => {
      const mark = s.kind === 'flaky' ? paint.yellow('≈') : paint.red(s.kind === 'warn' ? '!' : '✗');
      const spread = groupSpread(g);
      const first = g.outcomes[0];
      return `  ${mark} ${g.agent.name}  ${paint.bold(groupTitle(g))}  ${paint.dim(`[${first?.severity ?? ''}]`)}${spread ? `  ${spread}` : ''}${first ? `  ${paint.dim(shortDetail(first))}` : ''}`;
    }),
  );
  return lines.length ? ['', ...lines] : [];
}

/** Not verified: one line per finding; an unreachable agent's checks as one line. */
function untestedLines(s: FindingSection, open: number, paint: Paint): string[] {
  if (!s.findings) return [];
  const out = [
    '',
    paint.bold(`Not verified (${sectionCounts(s)}; applicable checks that could not be judged, ${open} leaving the verdict incomplete)`),
  ];
  for (const u of s.unreachable) {
    const why = u.agent.down ? `down: ${downWords(u.agent.down.cause)}` : 'initialize did not answer';
    out.push(`  ${paint.yellow('?')} ${u.agent.name}  every check (${u.outcomes})  ${paint.dim(`the agent could not be reached: ${why}`)}`);
  }
  for (const g of s.groups.slice(0, UNVERIFIED_SHOWN)) {
    const spread = groupSpread(g);
    out.push(
      `  ${paint.yellow('?')} ${g.agent.name}  ${groupTitle(g)}${spread ? `  ${spread}` : ''}  ${paint.dim(g.outcomes[0]?.message ?? '')}`,
    );
  }
  if (s.groups.length > UNVERIFIED_SHOWN) out.push(`  … ${s.groups.length - UNVERIFIED_SHOWN} more in report.json`);
  return out;
}

const UNVERIFIED_SHOWN = 20;
const STORYBOARD_FAILURES_SHOWN = 20;
/** Tool labels listed per finding; the rest are counted. */
const CALLS_SHOWN = 6;

/** The official storyboards: counts per agent and the failures by storyboard (advisory unless --strict-storyboards). */
function storyboardLines(report: RunReport, failed: readonly FindingGroup[], paint: Paint): string[] {
  const sb = report.run?.storyboards;
  const rows = report.agents.map((a) => ({ a, c: storyboardCounts(a) })).filter((r) => r.c !== null);
  if (!sb && !rows.length) return [];
  const how = sb?.strict ? 'counted: --strict-storyboards' : 'advisory: not in the verdict';
  const out = [
    '',
    paint.bold(
      `Storyboards ${sb?.selection ?? ''} (AdCP storyboard corpus ${sb?.corpusVersion ?? '?'}; ${how}; counted apart from the table)`,
    ),
    `  the corpus ${storyboardScope(sb?.corpusVersion ?? '?')}`,
  ];
  for (const { a, c } of rows) out.push(`  ${a.name}  ${c!.pass} pass, ${c!.fail} fail, ${c!.untested} untested, ${c!.notApplicable} n/a`);
  for (const g of failed.slice(0, STORYBOARD_FAILURES_SHOWN)) {
    const spread = groupSpread(g);
    out.push(
      `  ${paint.yellow('✗')} ${g.agent.name}  ${groupTitle(g)}${spread ? `  ${spread.replace(/ calls$/, ' steps')}` : ''}  ${paint.dim(g.outcomes[0]?.message ?? '')}`,
    );
  }
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

/** One finding: the check once, where it failed, the evidence of the first call of each distinct message, the fix and spec once. */
function groupBlock(g: FindingGroup, mark: string, paint: Paint): string[] {
  const first = g.outcomes[0];
  if (!first) return [];
  const spread = groupSpread(g);
  const single = g.outcomes.length === 1;
  const lines = [
    `  ${mark} ${g.agent.name}  ${paint.bold(g.check)}${single ? ` › ${first.tool}` : ''}  ${paint.dim(`[${first.severity}]`)}${spread ? `  ${spread}` : ''}`,
  ];
  const indent = (line: string) => `      ${line.startsWith('duration:') ? paint.dim(line) : line}`;
  const shown = g.variants.slice(0, VARIANTS_SHOWN);
  for (const v of shown) {
    if (!single) {
      const count = g.variants.length > 1 ? ` (${v.tools.length} call${v.tools.length === 1 ? '' : 's'})` : '';
      lines.push(indent(`on:       ${callList(v.tools, CALLS_SHOWN)}${count}`));
    }
    lines.push(...callEvidenceLines(v.first).map(indent));
  }
  const rest = g.variants.slice(VARIANTS_SHOWN);
  if (rest.length) {
    const calls = rest.reduce((n, v) => n + v.tools.length, 0);
    lines.push(indent(`… ${rest.length} more distinct message(s) on ${calls} call(s): see report.json`));
  }
  for (const line of ruleLines(first)) lines.push(`      ${line.startsWith('spec:') ? paint.dim(line) : line}`);
  return lines;
}

/** The run's headline, qualified by what it was measured against (the gate line follows it). */
function verdictLine(summary: RunSummary, paint: Paint): string {
  const { verdict, text } = summary.headline;
  if (verdict === 'conformant') return paint.green(`✓ ${text}`);
  if (verdict === 'nonconformant') return paint.red(`✗ ${text}`);
  return paint.yellow(`⚠ ${text}`);
}
