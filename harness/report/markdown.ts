// summary.md: a Markdown report for a CI step summary (GitHub `$GITHUB_STEP_SUMMARY` and the like).
import { escapeMarkdown as md } from '../sanitize.ts';
import { HARNESS_VERSION } from '../version.ts';
import { agentVerdict, countOutcomes, detailOf, failsRun, incompleteReason, leavesUnverified, runVerdict, verdictText, type AgentReport, type ReportOutcome, type RunReport, type Verdict } from './model.ts';

const MARK: Record<Verdict, string> = { conformant: '✅', nonconformant: '❌', incomplete: '⚠️' };

export function renderSummaryMarkdown(report: RunReport): string {
  const harness = report.run?.harnessVersion ?? HARNESS_VERSION;
  const verdict = runVerdict(report);
  const lines: string[] = ['# AdCP conformance', '', `**Result:** ${MARK[verdict]} ${md(verdict)} (per adcp-conformance ${md(harness)})${report.strict ? ' (strict: SHOULD failures count)' : ''}`, ''];
  if (report.run) {
    const r = report.run;
    lines.push(`Run ${md(r.startedAt)} → ${md(r.endedAt)} · Node ${md(r.node)} · MCP SDK ${md(r.mcpSdkVersion)} · @adcp/sdk ${md(r.adcpSdkVersion)} · schemas: ${md(r.schemaSource.kind)} ${md(r.schemaSource.location)} (${md(r.schemaSource.versions.join(', ') || 'none')})${r.config ? ` · config ${md(r.config)}` : ''}`, '');
  }
  if (report.cutShort) lines.push(`> Run cut short: ${md(report.cutShort)}`, '');
  lines.push('| agent | verdict | transport | server | AdCP | pass | fail | warn | untested | n/a | baselined |', '|---|---|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const a of report.agents) {
    const c = countOutcomes(a.outcomes);
    const v = agentVerdict(a, report.strict);
    const server = [a.server.name, a.server.version].filter((s) => s !== null).join(' ') || '—';
    lines.push(`| ${md(a.name)} | ${MARK[v]} ${md(verdictText(v, a.adcpVersion, harness))} | ${a.transport} ${md(a.protocolVersion ?? '—')} | ${md(server)} | ${md(a.adcpVersion ?? '—')} | ${c.pass} | ${c.fail} | ${c.warn} | ${c.untested} | ${c.notApplicable} | ${c.baselined} |`);
  }
  const incomplete = report.agents.map((a) => ({ a, why: incompleteReason(a, report.strict) })).filter((x) => x.why !== null);
  if (incomplete.length) {
    lines.push('', '## Incomplete agents', '');
    for (const { a, why } of incomplete) lines.push(`- **${md(a.name)}**: ${md(why ?? '')}${a.stderrTail ? ` — stderr: \`${md(a.stderrTail)}\`` : ''}`);
  }
  section(lines, 'Failures', report.agents, (o) => failsRun(o, report.strict));
  section(lines, 'Warnings (SHOULD)', report.agents, (o) => o.status === 'warn' && !failsRun(o, report.strict) && o.baseline === undefined);
  section(lines, 'Not verified', report.agents.filter((a) => a.reachable), (o) => leavesUnverified(o, report.strict));
  section(lines, 'Expected failures (baseline)', report.agents, (o) => o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn'));
  return lines.join('\n') + '\n';
}

function section(lines: string[], title: string, agents: readonly AgentReport[], pick: (o: ReportOutcome) => boolean): void {
  const rows = agents.flatMap((a) => a.outcomes.filter(pick).map((o) => ({ a, o })));
  if (!rows.length) return;
  lines.push('', `## ${title}`, '', '| agent | check | tool | detail | evidence | fix | spec |', '|---|---|---|---|---|---|---|');
  for (const { a, o } of rows) {
    const detail = o.baseline !== undefined ? `${detailOf(o)} — baseline: ${o.baseline}` : detailOf(o);
    const schemaErrors = (o.schemaErrors ?? []).map((e) => `${e.pointer || '/'} ${e.keyword}: expected ${e.expected}; found ${e.found}`);
    if (o.schemaErrorsOmitted) schemaErrors.push(`… ${o.schemaErrorsOmitted} more`);
    const ev = o.evidence;
    const evidence = [
      ev?.diagnosis ? `**diagnosis:** ${md(ev.diagnosis)}` : '',
      ev?.sameCauseAs ? `root cause reported with ${md(ev.sameCauseAs)}` : '',
      ev?.request ? `sent: ${md(ev.request)}` : '',
      ev?.answer ? `answered: ${md(ev.answer)}` : '',
      ev?.stderr ? `stderr: ${md(ev.stderr)}` : '',
      ...schemaErrors.map((e) => `schema: ${md(e)}`),
      o.durationMs !== undefined ? `${o.durationMs} ms` : '',
    ].filter(Boolean);
    lines.push(`| ${md(a.name)} | \`${o.check}\` | ${md(o.tool)} | ${md(detail)} | ${evidence.join('<br>')} | ${md(o.fix ?? '')} | [${md(o.spec)}](${specHref(o.specUrl)}) |`);
  }
}

/** A spec link that cannot break out of the Markdown link: only https URLs and our README anchors. */
function specHref(url: string): string {
  return /^(https:\/\/|README\.md#)[A-Za-z0-9._~:/?#@!$&'*+,;=%-]*$/.test(url) ? url.replace(/[()]/g, (c) => encodeURIComponent(c)) : '#';
}
