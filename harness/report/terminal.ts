// The terminal summary printed after a run: a table agent × pass / fail / warn / skip, then one block
// per failure (check id, tool, JSON pointer, expected vs found, spec). Strings are already sanitized
// (no control characters, so no seller-made escape sequences); colour only when asked.
import { countOutcomes, exitCodeOf, failsRun, type AgentReport, type ReportOutcome, type RunReport } from './model.ts';

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
  const header = ['agent', 'pass', 'fail', 'warn', 'skip', 'baselined'];
  const rows = report.agents.map((a) => {
    const c = countOutcomes(a.outcomes);
    return [a.name, String(c.pass), String(c.fail), String(c.warn), String(c.skip), String(c.baselined)];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const cell = (text: string, i: number) => (i === 0 ? text.padEnd(widths[i] ?? 0) : text.padStart(widths[i] ?? 0));
  const out: string[] = ['', paint.bold(header.map(cell).join('  '))];
  for (const [n, r] of rows.entries()) {
    const a = report.agents[n];
    let line = r.map(cell).join('  ');
    if (a && (!a.reachable || a.incomplete !== null)) line += '  ' + paint.yellow(`incomplete: ${a.incomplete ?? 'initialize did not answer'}`);
    out.push(line);
  }

  const failures = report.agents.flatMap((a) => a.outcomes.filter((o) => failsRun(o, report.strict)).map((o) => ({ a, o })));
  if (failures.length) {
    out.push('', paint.bold(`Failures (${failures.length})`));
    for (const { a, o } of failures) out.push(...block(a, o, paint.red('✗'), paint));
  }
  const warnings = report.agents.flatMap((a) => a.outcomes.filter((o) => o.status === 'warn' && !failsRun(o, report.strict) && o.baseline === undefined).map((o) => ({ a, o })));
  if (warnings.length) {
    out.push('', paint.bold(`Warnings, SHOULD (${warnings.length}; fail only under --strict)`));
    for (const { a, o } of warnings) out.push(...block(a, o, paint.yellow('!'), paint));
  }
  const baselined = report.agents.flatMap((a) => a.outcomes.filter((o) => o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn')).map((o) => ({ a, o })));
  if (baselined.length) {
    out.push('', paint.bold(`Expected failures from the baseline (${baselined.length}; not counted)`));
    for (const { a, o } of baselined) out.push(`  ${paint.dim('~')} ${a.name}  ${o.check} › ${o.tool}  ${paint.dim(`baseline: ${o.baseline ?? ''}`)}`);
  }
  if (report.cutShort) out.push('', paint.yellow(`Run cut short: ${report.cutShort}`));
  out.push('', verdictLine(report, paint), '');
  return out.join('\n');
}

function block(a: AgentReport, o: ReportOutcome, mark: string, paint: Paint): string[] {
  const lines = [`  ${mark} ${a.name}  ${paint.bold(o.check)} › ${o.tool}  ${paint.dim(`[${o.severity}]`)}`];
  if (o.pointer !== undefined) {
    lines.push(`      at       ${o.pointer}`, `      expected ${o.expected ?? ''}`, `      found    ${o.found ?? ''}`);
  } else if (o.message) {
    lines.push(`      ${o.message}`);
  }
  lines.push(`      ${paint.dim(`spec: ${o.spec}`)}`);
  return lines;
}

function verdictLine(report: RunReport, paint: Paint): string {
  const code = exitCodeOf(report);
  if (code === 0) return paint.green('✓ conformant') + (report.strict ? ' (strict)' : '');
  if (code === 1) return paint.red('✗ conformance failures');
  return paint.yellow('⚠ incomplete: an agent could not be reached or the run was cut short');
}
