// summary.md: a Markdown report for a CI step summary (GitHub `$GITHUB_STEP_SUMMARY` and the like).
// It opens with the comparison (--compare), and stays under 1 MiB — GitHub drops a larger step summary
// whole — by trimming its longest sections and saying so at the top.
import { escapeMarkdown as md } from '../sanitize.ts';
import { HARNESS_VERSION } from '../version.ts';
import { changeRows, comparisonHeadline } from './compare.ts';
import {
  agentVerdict,
  baselineUse,
  configErrorsOf,
  countOutcomes,
  detailOf,
  failsRun,
  incompleteReason,
  leavesUnverified,
  regressionCount,
  runVerdict,
  storyboardCounts,
  storyboardScope,
  verdictText,
  type AgentReport,
  type ReportOutcome,
  type RunReport,
  type Verdict,
} from './model.ts';

const MARK: Record<Verdict, string> = { conformant: '✅', nonconformant: '❌', incomplete: '⚠️' };

/** GitHub's step summary limit is 1 MiB; keep a margin for the trim note and the closing lines. */
export const SUMMARY_MAX_BYTES = 1024 * 1024 - 8 * 1024;

/** A part of the summary: fixed lines, then rows that may be trimmed from the end when the summary is too big. */
interface Section {
  title: string;
  head: string[];
  rows: string[];
  /** Rows removed to fit. */
  omitted: number;
}

export function renderSummaryMarkdown(report: RunReport, maxBytes: number = SUMMARY_MAX_BYTES): string {
  const harness = report.run?.harnessVersion ?? HARNESS_VERSION;
  const verdict = runVerdict(report);
  const title = ['# AdCP conformance', ''];
  const sections: Section[] = [];
  const add = (name: string, head: string[], rows: string[]) => sections.push({ title: name, head, rows, omitted: 0 });

  if (report.comparison) {
    const c = report.comparison;
    const rows = changeRows(c).map(
      (r) =>
        `| ${r.kind.regression ? '❌' : r.kind.label === 'fixed' || r.kind.label === 'back online' ? '✅' : '〰️'} ${md(r.kind.label)} | ${md(r.agent)} | ${md(r.what)} | ${md(r.message)} |`,
    );
    const gate = report.failOn === 'regressions' ? ` — \`--fail-on regressions\`: ${regressionCount(c)} regression(s)` : '';
    add(
      'Changes since the compared run',
      [
        '## Since the compared run',
        '',
        `**${md(comparisonHeadline(c))}**${gate}`,
        ...(rows.length ? ['', '| change | agent | check › tool | message |', '|---|---|---|---|'] : []),
      ],
      rows,
    );
  }

  const head: string[] = [
    `**Result:** ${MARK[verdict]} ${md(verdict)} (per adcp-conformance ${md(harness)})${report.strict ? ' (strict: SHOULD failures count)' : ''}`,
    '',
  ];
  if (report.run) {
    const r = report.run;
    head.push(
      `Run ${md(r.startedAt)} → ${md(r.endedAt)} · Node ${md(r.node)} · MCP SDK ${md(r.mcpSdkVersion)} · @adcp/sdk ${md(r.adcpSdkVersion)} · schemas: ${md(r.schemaSource.kind)} ${md(r.schemaSource.location)} (${md(r.schemaSource.versions.join(', ') || 'none')})${r.config ? ` · config ${md(r.config)}` : ''}`,
      '',
    );
  }
  head.push(md(baselineUse(report).text), '');
  if (report.cutShort) head.push(`> Run cut short: ${md(report.cutShort)}`, '');
  head.push(
    '| agent | verdict | transport | server | AdCP | pass | fail | warn | untested | n/a | baselined |',
    '|---|---|---|---|---|---:|---:|---:|---:|---:|---:|',
  );
  const agentRows = report.agents.map((a) => {
    const c = countOutcomes(a.outcomes);
    const v = agentVerdict(a, report.strict);
    const server = [a.server.name, a.server.version].filter((s) => s !== null).join(' ') || '—';
    return `| ${md(a.name)} | ${MARK[v]} ${md(verdictText(v, a.adcpVersion, harness))} | ${a.transport} ${md(a.protocolVersion ?? '—')} | ${md(server)} | ${md(a.adcpVersion ?? '—')} | ${c.pass} | ${c.fail} | ${c.warn} | ${c.untested} | ${c.notApplicable} | ${c.baselined} |`;
  });
  add('Agents', head, agentRows);
  // The release each agent was judged at, its patch, the schema source and why (the AdCP column's reason).
  const releases = report.agents.filter((a) => a.adcpVersionReason);
  if (releases.length)
    add(
      'AdCP releases',
      ['', '## AdCP release judged', ''],
      releases.map((a) => `- **${md(a.name)}**: AdCP ${md(a.adcpVersion ?? '—')} — ${md(a.adcpVersionReason ?? '')}`),
    );

  const incomplete = report.agents.map((a) => ({ a, why: incompleteReason(a, report.strict) })).filter((x) => x.why !== null);
  if (incomplete.length)
    add(
      'Incomplete agents',
      ['', '## Incomplete agents', ''],
      incomplete.map(({ a, why }) => `- **${md(a.name)}**: ${md(why ?? '')}${a.stderrTail ? ` — stderr: \`${md(a.stderrTail)}\`` : ''}`),
    );
  const configErrors = configErrorsOf(report);
  if (configErrors.length)
    add(
      'Config errors',
      ['', '## Config errors (exit 2)', ''],
      configErrors.map((e) => `- ${md(e)}`),
    );
  outcomeSection(add, 'Failures', report.agents, (o) => failsRun(o, report.strict) && !o.flaky);
  outcomeSection(
    add,
    'Flaky (failed, then passed when re-verified in a fresh session; never a regression)',
    report.agents,
    (o) => failsRun(o, report.strict) && o.flaky === true,
  );
  outcomeSection(
    add,
    'Warnings (SHOULD)',
    report.agents,
    (o) => o.status === 'warn' && !failsRun(o, report.strict) && o.baseline === undefined,
  );
  outcomeSection(
    add,
    'Not verified',
    report.agents.filter((a) => a.reachable),
    (o) => leavesUnverified(o, report.strict),
  );
  const sb = report.run?.storyboards;
  const sbRows = report.agents.flatMap((a) => {
    const c = storyboardCounts(a);
    return c ? [`- **${md(a.name)}**: ${c.pass} pass, ${c.fail} fail, ${c.untested} untested, ${c.notApplicable} n/a`] : [];
  });
  if (sb || sbRows.length) {
    const how = sb?.strict ? 'counted (--strict-storyboards)' : 'advisory: not in the verdict';
    add(
      'Storyboards',
      [
        '',
        `## Storyboards ${md(sb?.selection ?? '')}`,
        '',
        `AdCP storyboard corpus ${md(sb?.corpusVersion ?? '?')}; ${how}. The corpus ${storyboardScope(sb?.corpusVersion ?? '?')}.`,
        '',
      ],
      sbRows,
    );
    outcomeSection(add, 'Storyboard failures', report.agents, (o) => o.check.startsWith('storyboard.') && o.status === 'fail');
  }
  outcomeSection(
    add,
    'Expected failures (baseline)',
    report.agents,
    (o) => o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn'),
  );

  fit(title, sections, maxBytes);
  const trimmed = sections.filter((s) => s.omitted > 0);
  const note = trimmed.length
    ? [
        `> **This summary was trimmed to stay under 1 MiB** (GitHub drops larger step summaries): ${trimmed.map((s) => `${md(s.title)} shows ${s.rows.length} of ${s.rows.length + s.omitted} rows`).join('; ')}. report.json and report.html have everything.`,
        '',
      ]
    : [];
  return [...title, ...note, ...sections.flatMap(render)].join('\n') + '\n';
}

function render(s: Section): string[] {
  return [...s.head, ...s.rows, ...(s.omitted ? ['', `*… ${s.omitted} more rows: see report.json or report.html*`] : [])];
}

const bytes = (lines: readonly string[]) => lines.reduce((n, l) => n + Buffer.byteLength(l, 'utf8') + 1, 0);

/** Halve the rows of the biggest section until the whole fits (the trim note is inside the margin). */
function fit(title: readonly string[], sections: Section[], maxBytes: number): void {
  const size = () => bytes(title) + sections.reduce((n, s) => n + bytes(render(s)), 0);
  while (size() > maxBytes) {
    const biggest = sections.filter((s) => s.rows.length > 0).sort((a, b) => bytes(b.rows) - bytes(a.rows))[0];
    if (!biggest) return;
    const keep = Math.floor(biggest.rows.length / 2);
    biggest.omitted += biggest.rows.length - keep;
    biggest.rows = biggest.rows.slice(0, keep);
  }
}

function outcomeSection(
  add: (name: string, head: string[], rows: string[]) => void,
  title: string,
  agents: readonly AgentReport[],
  pick: (o: ReportOutcome) => boolean,
): void {
  const rows = agents.flatMap((a) => a.outcomes.filter(pick).map((o) => ({ a, o })));
  if (!rows.length) return;
  const name = title.replace(/ \(.*$/, '');
  add(
    name,
    ['', `## ${title}`, '', '| agent | check | tool | detail | evidence | fix | spec |', '|---|---|---|---|---|---|---|'],
    rows.map(({ a, o }) => outcomeRow(a, o)),
  );
}

function outcomeRow(a: AgentReport, o: ReportOutcome): string {
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
  return `| ${md(a.name)} | \`${o.check}\` | ${md(o.tool)} | ${md(detail)} | ${evidence.join('<br>')} | ${md(o.fix ?? '')} | [${md(o.spec)}](${specHref(o.specUrl)}) |`;
}

/** A spec link that cannot break out of the Markdown link: only https URLs and our README anchors. */
function specHref(url: string): string {
  return /^(https:\/\/|README\.md#)[A-Za-z0-9._~:/?#@!$&'*+,;=%-]*$/.test(url) ? url.replace(/[()]/g, (c) => encodeURIComponent(c)) : '#';
}
