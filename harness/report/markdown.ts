// summary.md: a Markdown report for a CI step summary (GitHub `$GITHUB_STEP_SUMMARY` and the like).
// It opens with the comparison (--compare), then the headline and the gate, a table per agent and the
// findings grouped by cause (findings.ts); it stays under 1 MiB — GitHub drops a larger step summary
// whole — by trimming its longest sections and saying so at the top. Links are absolute https URLs
// only: a step summary has no file beside it for a relative link to reach.
import { escapeMarkdown as md } from '../sanitize.ts';
import { changeRows, comparisonHeadline } from './compare.ts';
import { callList, sectionCounts, VARIANTS_SHOWN, type FindingGroup, type FindingKind, type FindingSection } from './findings.ts';
import { downWords } from './gate.ts';
import {
  agentVerdict,
  baselineUse,
  configErrorsOf,
  detailOf,
  incompleteReason,
  regressionCount,
  storyboardCounts,
  storyboardScope,
  verdictText,
  type AgentReport,
  type ReportOutcome,
  type RunReport,
  type Verdict,
} from './model.ts';
import { accountLine, createdHeading, createdText, ENABLE_STATE_RULES, hasSandboxNotes, outOfReachLine } from './sandbox-notes.ts';
import { deliveryText, hasTaskNotes, quotedCalls, traceCallText, webhookHeading } from './task-notes.ts';
import { agentSummary, summarize, type RunSummary } from './summary.ts';

const MARK: Record<Verdict, string> = { conformant: '✅', nonconformant: '❌', incomplete: '⚠️' };

/** GitHub's step summary limit is 1 MiB; keep a margin for the trim note and the closing lines. */
export const SUMMARY_MAX_BYTES = 1024 * 1024 - 8 * 1024;

/** Tool labels listed per finding; the rest are counted. */
const CALLS_SHOWN = 8;

/** A part of the summary: fixed lines, then rows that may be trimmed from the end when the summary is too big. */
interface Section {
  title: string;
  head: string[];
  rows: string[];
  /** Rows removed to fit. */
  omitted: number;
}

const FINDING_HEADINGS: Record<FindingKind, string> = {
  fail: 'Failures',
  flaky: 'Flaky',
  warn: 'Warnings, SHOULD',
  untested: 'Not verified',
  baselined: 'Expected failures (baseline)',
  covered: 'Left untested by a baselined failure',
};
const FINDING_NOTES: Record<FindingKind, (strict: boolean) => string> = {
  fail: () => '',
  flaky: () => '; failed, then passed when re-verified in a fresh session; never a regression',
  warn: (strict) => (strict ? '; failing the run: --strict' : '; fail only under --strict'),
  untested: () => '; applicable checks that could not be judged',
  baselined: () => '; not counted',
  covered: () => '; covered by the baseline, not counted as untested',
};

/** `summary`: summarize(report), when the caller has it already (one run renders several forms of it). */
export function renderSummaryMarkdown(
  report: RunReport,
  maxBytes: number = SUMMARY_MAX_BYTES,
  summary: RunSummary = summarize(report),
): string {
  const harness = summary.harnessVersion;
  const title = ['# AdCP conformance', ''];
  const sections: Section[] = [];
  const add = (name: string, head: string[], rows: string[]) => sections.push({ title: name, head, rows, omitted: 0 });

  if (report.comparison) {
    const c = report.comparison;
    const rows = changeRows(c).map(
      (r) =>
        `| ${r.kind.regression ? '❌' : r.kind.label === 'fixed' || r.kind.label === 'back online' ? '✅' : '〰️'} ${md(r.kind.label)} | ${md(r.agent)} | ${md(r.what)} | ${md(r.message)} |`,
    );
    const gateNote = report.failOn === 'regressions' ? ` — \`--fail-on regressions\`: ${regressionCount(c)} regression(s)` : '';
    add(
      'Changes since the compared run',
      [
        '## Since the compared run',
        '',
        `**${md(comparisonHeadline(c))}**${gateNote}`,
        ...(rows.length ? ['', '| change | agent | check › tool | message |', '|---|---|---|---|'] : []),
      ],
      rows,
    );
  }

  const { verdict, text } = summary.headline;
  const g = summary.gate;
  const head: string[] = [`**Result:** ${MARK[verdict]} ${md(text)}`, '', `**${md(g.text)}**`, ''];
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
    const c = agentSummary(summary, a).counts;
    const v = agentVerdict(a, report.strict);
    const verdictCell =
      !a.reachable && a.down
        ? `${MARK.incomplete} down: ${md(downWords(a.down.cause))}`
        : `${MARK[v]} ${md(verdictText(v, a.adcpVersion, harness, c.baselined))}`;
    const server = [a.server.name, a.server.version].filter((s) => s !== null).join(' ') || '—';
    return `| ${md(a.name)} | ${verdictCell} | ${a.transport} ${md(a.protocolVersion ?? '—')} | ${md(server)} | ${md(a.adcpVersion ?? '—')} | ${c.pass} | ${c.fail} | ${c.warn} | ${c.untested} | ${c.notApplicable} | ${c.baselined} |`;
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

  // The account each agent's calls named, the state rules a read-only run left out of reach, what the flows created.
  const sandbox = report.agents.filter(hasSandboxNotes);
  if (sandbox.length) add('Sandbox and account', ['', '## Sandbox and account', ''], sandbox.flatMap(sandboxRows));

  // The task lifecycle call by call (the first answer, each poll, the terminal result) and every webhook delivery with its signature.
  const tasks = report.agents.filter(hasTaskNotes);
  if (tasks.length) add('Task lifecycle and webhooks', ['', '## Task lifecycle and webhooks', ''], tasks.flatMap(taskRows));

  const incomplete = report.agents.map((a) => ({ a, why: incompleteReason(a, report.strict) })).filter((x) => x.why !== null);
  if (incomplete.length)
    add(
      'Incomplete agents',
      ['', '## Incomplete agents', ''],
      incomplete.map(({ a, why }) => {
        const reason = !a.reachable && a.down ? `down: ${md(a.down.detail)} — fix: ${md(a.down.fix)}` : md(why ?? '');
        return `- **${md(a.name)}**: ${reason}${a.stderrTail ? ` — stderr: ${md(a.stderrTail)}` : ''}`;
      }),
    );
  const configErrors = configErrorsOf(report);
  if (configErrors.length)
    add(
      'Config errors',
      ['', '## Config errors (exit 2)', ''],
      configErrors.map((e) => `- ${md(e)}`),
    );

  for (const s of summary.findings) findingSection(add, s, report, summary.openUnverified);

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
        `AdCP storyboard corpus ${md(sb?.corpusVersion ?? '?')}; ${how}; counted apart from the agent table. The corpus ${md(storyboardScope(sb?.corpusVersion ?? '?'))}.`,
        '',
      ],
      sbRows,
    );
    const failed = summary.storyboardFailures;
    if (failed.length) {
      const outcomes = failed.reduce((n, f) => n + f.outcomes.length, 0);
      add(
        'Storyboard failures',
        ['', `## Storyboard failures (${sectionCounts({ outcomes, findings: failed.length })})`, '', ...TABLE_HEAD],
        failed.map(groupRow),
      );
    }
  }

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

/** Created objects listed per agent in the summary; the rest are in report.json. */
const CREATED_SHOWN = 20;

/** One agent's bullets: its account, its state rules out of reach (one line, how to enable them), what its flows created. */
function sandboxRows(a: AgentReport): string[] {
  const rows: string[] = [];
  const account = accountLine(a);
  if (account) rows.push(`- **${md(a.name)}** ${md(account)}`);
  const reach = outOfReachLine(a);
  if (reach) rows.push(`- **${md(a.name)}** ⚠️ ${md(reach)}. ${md(ENABLE_STATE_RULES)}`);
  const heading = createdHeading(a);
  if (heading) {
    const created = a.created ?? [];
    const more = Math.max(0, created.length - CREATED_SHOWN) + (a.createdOmitted ?? 0);
    rows.push(
      `- **${md(a.name)}** ${md(heading)}`,
      ...created.slice(0, CREATED_SHOWN).map((c) => `  - ${md(createdText(c))}`),
      ...(more > 0 ? [`  - … ${more} more in report.json`] : []),
    );
  }
  return rows;
}

/** Webhook deliveries listed per agent in the summary; the rest are in report.json. */
const DELIVERIES_SHOWN = 20;

/** One agent's task lifecycle (the answers of the booking, the last poll and the replay quoted) and its webhook deliveries. */
function taskRows(a: AgentReport): string[] {
  const rows: string[] = [];
  if (a.taskTrace) {
    const quoted = quotedCalls(a.taskTrace.calls);
    rows.push(
      `- **${md(a.name)}** ${md(a.taskTrace.text)}`,
      ...a.taskTrace.calls.map((c) => `  - ${md(traceCallText(c))}${quoted.has(c) && c.answer ? ` — answered: ${md(c.answer)}` : ''}`),
    );
  }
  const w = a.webhooks;
  if (w) {
    const more = Math.max(0, w.deliveries.length - DELIVERIES_SHOWN) + w.omitted;
    rows.push(
      `- **${md(a.name)}** ${md(webhookHeading(w))}`,
      ...w.deliveries.slice(0, DELIVERIES_SHOWN).map((d) => `  - ${d.verification?.ok === false ? '❌ ' : ''}${md(deliveryText(d))}`),
      ...(more > 0 ? [`  - … ${more} more in report.json`] : []),
    );
  }
  return rows;
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

const TABLE_HEAD = ['| agent | check | calls | detail | evidence | fix | spec |', '|---|---|---|---|---|---|---|'];

/** One section of findings: a row per finding (a check on one agent, across its calls). */
function findingSection(
  add: (name: string, head: string[], rows: string[]) => void,
  s: FindingSection,
  report: RunReport,
  open: number,
): void {
  if (!s.findings) return;
  const name = FINDING_HEADINGS[s.kind];
  let note = FINDING_NOTES[s.kind](report.strict);
  if (s.kind === 'untested') note += `, ${open} leaving the verdict incomplete`;
  const unreachable = s.unreachable.map((u) => {
    const why = u.agent.down ? `down: ${downWords(u.agent.down.cause)}` : 'initialize did not answer';
    return `| ${md(u.agent.name)} | every check | ${u.outcomes} | not verified: the agent could not be reached (${md(why)}) |  |  |  |`;
  });
  add(name, ['', `## ${name} (${sectionCounts(s)}${note})`, '', ...TABLE_HEAD], [...unreachable, ...s.groups.map(groupRow)]);
}

/** `8 of 22: get_products, get_products (pagination: page-1), …` or the one call's tool. */
function callsCell(g: FindingGroup): string {
  const tools = g.outcomes.map((o) => o.tool);
  if (tools.length === 1) return md(tools[0] ?? '');
  return `**${tools.length} of ${Math.max(g.applicable, tools.length)}**: ${md(callList(tools, CALLS_SHOWN))}`;
}

function groupRow(g: FindingGroup): string {
  const first = g.outcomes[0]!;
  const shown = g.variants.slice(0, VARIANTS_SHOWN);
  const detail =
    g.variants.length === 1
      ? md(withBaseline(first))
      : [
          ...shown.map((v) => `**on ${md(callList(v.tools, 3))}:** ${md(withBaseline(v.first))}`),
          ...(g.variants.length > VARIANTS_SHOWN
            ? [`… ${g.variants.length - VARIANTS_SHOWN} more distinct message(s): see report.json`]
            : []),
        ].join('<br>');
  return `| ${md(g.agent.name)} | \`${g.check}\` | ${callsCell(g)} | ${detail} | ${evidenceCell(first)} | ${md(first.fix ?? '')} | ${specLink(first)} |`;
}

const withBaseline = (o: ReportOutcome) =>
  `${detailOf(o)}${o.baseline !== undefined ? ` — baseline: ${o.baseline}` : ''}${o.coveredBy !== undefined ? ` — behind the baselined failure ${o.coveredBy}` : ''}`;

/** The first call's evidence: diagnosis, what was sent and answered, stderr, schema errors, duration. */
function evidenceCell(o: ReportOutcome): string {
  const schemaErrors = (o.schemaErrors ?? []).map((e) => `${e.pointer || '/'} ${e.keyword}: expected ${e.expected}; found ${e.found}`);
  if (o.schemaErrorsOmitted) schemaErrors.push(`… ${o.schemaErrorsOmitted} more`);
  const ev = o.evidence;
  return [
    ev?.diagnosis ? `**diagnosis:** ${md(ev.diagnosis)}` : '',
    ev?.sameCauseAs ? `root cause reported with ${md(ev.sameCauseAs)}` : '',
    ev?.request ? `sent: ${md(ev.request)}` : '',
    ev?.answer ? `answered: ${md(ev.answer)}` : '',
    ev?.stderr ? `stderr: ${md(ev.stderr)}` : '',
    ...(ev?.related ?? []).map(
      (r) =>
        `**with call ${r.call}** ${md(r.tool)}${r.request ? `: sent: ${md(r.request)}` : ''}${r.answer ? ` — answered: ${md(r.answer)}` : ''}`,
    ),
    ...schemaErrors.map((e) => `schema: ${md(e)}`),
    o.durationMs !== undefined ? `${o.durationMs} ms` : '',
  ]
    .filter(Boolean)
    .join('<br>');
}

/**
 * The spec as a link only when it is an absolute https URL that cannot break out of the link; a rule of
 * this harness (its section of docs/checks.md) is named as text — a step summary has no file beside it.
 */
function specLink(o: ReportOutcome): string {
  if (/^https:\/\/[A-Za-z0-9._~:/?#@!$&'*+,;=%-]*$/.test(o.specUrl))
    return `[${md(o.spec)}](${o.specUrl.replace(/[()]/g, (c) => encodeURIComponent(c))})`;
  const section = /^docs\/checks\.md#(.+)$/.exec(o.specUrl)?.[1];
  return section ? `${md(o.spec)} (adcp-conformance docs/checks.md, section ${md(section)})` : md(o.spec);
}
