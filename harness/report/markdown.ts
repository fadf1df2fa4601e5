// summary.md: a Markdown report for a CI step summary (GitHub `$GITHUB_STEP_SUMMARY` and the like).
import { escapeMarkdown as md } from '../sanitize.ts';
import { countOutcomes, detailOf, exitCodeOf, failsRun, type AgentReport, type ReportOutcome, type RunReport } from './model.ts';

const VERDICT: Record<0 | 1 | 3, string> = {
  0: '✅ conformant',
  1: '❌ conformance failures',
  3: '⚠️ incomplete: an agent could not be reached or the run was cut short',
};

export function renderSummaryMarkdown(report: RunReport): string {
  const lines: string[] = ['# AdCP conformance', '', `**Result:** ${VERDICT[exitCodeOf(report)]}${report.strict ? ' (strict: SHOULD failures count)' : ''}`, ''];
  if (report.cutShort) lines.push(`> Run cut short: ${md(report.cutShort)}`, '');
  lines.push('| agent | transport | server | AdCP | pass | fail | warn | skip | baselined |', '|---|---|---|---|---:|---:|---:|---:|---:|');
  for (const a of report.agents) {
    const c = countOutcomes(a.outcomes);
    const server = [a.server.name, a.server.version].filter((s) => s !== null).join(' ') || '—';
    lines.push(`| ${md(a.name)} | ${a.transport} ${md(a.protocolVersion ?? '—')} | ${md(server)} | ${md(a.adcpVersion ?? '—')} | ${c.pass} | ${c.fail} | ${c.warn} | ${c.skip} | ${c.baselined} |`);
  }
  const incomplete = report.agents.filter((a) => !a.reachable || a.incomplete !== null);
  if (incomplete.length) {
    lines.push('', '## Incomplete agents', '');
    for (const a of incomplete) lines.push(`- **${md(a.name)}**: ${md(a.incomplete ?? 'initialize did not answer')}`);
  }
  section(lines, 'Failures', report.agents, (o) => failsRun(o, report.strict));
  section(lines, 'Warnings (SHOULD)', report.agents, (o) => o.status === 'warn' && !failsRun(o, report.strict) && o.baseline === undefined);
  section(lines, 'Expected failures (baseline)', report.agents, (o) => o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn'));
  return lines.join('\n') + '\n';
}

function section(lines: string[], title: string, agents: readonly AgentReport[], pick: (o: ReportOutcome) => boolean): void {
  const rows = agents.flatMap((a) => a.outcomes.filter(pick).map((o) => ({ a, o })));
  if (!rows.length) return;
  lines.push('', `## ${title}`, '', '| agent | check | tool | detail | spec |', '|---|---|---|---|---|');
  for (const { a, o } of rows) {
    const detail = o.baseline !== undefined ? `${detailOf(o)} — baseline: ${o.baseline}` : detailOf(o);
    lines.push(`| ${md(a.name)} | \`${o.check}\` | ${md(o.tool)} | ${md(detail)} | ${md(o.spec)} |`);
  }
}
