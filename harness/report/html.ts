// report.html: one self-contained page a person opens (from file:// or a CI artifact): the comparison
// first, a card per seller with its verdict and counts, every finding with its evidence, filters by
// check area and status, and a check × seller matrix. No network fetch of any kind: styles and the small
// filter script are inline, pinned by a Content-Security-Policy that allows nothing else (not even an
// image or a font), and every string is escaped (seller text arrives sanitized; escapeHtml makes it inert).
import { createHash } from 'node:crypto';
import { escapeHtml as h } from '../sanitize.ts';
import { changeRows, comparisonHeadline } from './compare.ts';
import {
  callList,
  findingKind,
  groupSpread,
  sectionCounts,
  shortDetail,
  VARIANTS_SHOWN,
  type FindingGroup,
  type FindingKind,
  type FindingSection,
  type UnreachableUntested,
} from './findings.ts';
import { downWords } from './gate.ts';
import { agentSummary, summarize, type AgentSummary, type RunSummary } from './summary.ts';
import { accountLine, createdHeading, createdText, ENABLE_STATE_RULES, outOfReachLine } from './sandbox-notes.ts';
import { deliveryText, traceCallText, webhookHeading } from './task-notes.ts';
import {
  agentVerdict,
  baselineUse,
  configErrorsOf,
  incompleteReason,
  regressionCount,
  storyboardCounts,
  verdictText,
  type AgentReport,
  type ReportOutcome,
  type RunReport,
  type Verdict,
} from './model.ts';

/** How a finding is filed: the status filter's values (the catalog's kinds, and the storyboards apart). */
type FilterKind = FindingKind | 'storyboard';
const FILTER_KINDS: ReadonlyArray<{ kind: FilterKind; label: string; heading: string }> = [
  { kind: 'fail', label: 'failures', heading: 'Failures' },
  { kind: 'flaky', label: 'flaky', heading: 'Flaky: failed, then passed when re-verified in a fresh session' },
  { kind: 'warn', label: 'warnings (SHOULD)', heading: 'Warnings (SHOULD)' },
  { kind: 'untested', label: 'not verified', heading: 'Not verified' },
  { kind: 'baselined', label: 'baselined', heading: 'Expected failures (baseline): not counted' },
  {
    kind: 'covered',
    label: 'untested behind a baselined failure',
    heading: 'Left untested by a baselined failure: covered by the baseline',
  },
  { kind: 'storyboard', label: 'storyboards', heading: 'Storyboard failures: counted apart from the catalog' },
];

/** A matrix cell: the worst of an agent's outcomes of one check. */
type CellKind = FindingKind | 'pass' | 'not-applicable' | 'none';
const CELL_RANK: Record<CellKind, number> = {
  fail: 8,
  flaky: 7,
  warn: 6,
  untested: 5,
  baselined: 4,
  covered: 3,
  pass: 2,
  'not-applicable': 1,
  none: 0,
};
const CELL_MARK: Record<CellKind, string> = {
  fail: '✗',
  flaky: '≈',
  warn: '!',
  untested: '?',
  baselined: '~',
  covered: '⊘',
  pass: '✓',
  'not-applicable': '–',
  none: '',
};
const VERDICT_MARK: Record<Verdict, string> = { conformant: '✓', nonconformant: '✗', incomplete: '⚠' };

function cellKind(o: ReportOutcome): CellKind {
  return findingKind(o) ?? (o.status === 'pass' ? 'pass' : o.status === 'not-applicable' ? 'not-applicable' : 'none');
}

const areaOf = (check: string) => check.slice(0, check.indexOf('.')) || check;

const STYLE = `
:root{color-scheme:light;--fail:#b3261e;--warn:#8a5a00;--ok:#1b6e2b;--muted:#5f6368;--line:#dadce0;--bg:#f8f9fa}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:1.5rem;color:#202124;background:#fff}
h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.2rem;margin:2rem 0 .75rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}h3{font-size:1rem;margin:0 0 .25rem;word-break:break-all}
[hidden]{display:none!important}.muted{color:var(--muted)}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{white-space:pre-wrap;word-break:break-word;background:var(--bg);padding:.4rem .6rem;border-radius:4px;margin:.2rem 0}
.v-conformant{color:var(--ok)}.v-nonconformant{color:var(--fail)}.v-incomplete{color:var(--warn)}.verdict{font-weight:600}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:.75rem}
.card{border:1px solid var(--line);border-left:6px solid var(--muted);border-radius:6px;padding:.6rem .8rem}
.card.v-conformant{border-left-color:var(--ok)}.card.v-nonconformant{border-left-color:var(--fail)}.card.v-incomplete{border-left-color:var(--warn)}
.counts{display:flex;flex-wrap:wrap;gap:.3rem .8rem;margin:.4rem 0 0;padding:0;list-style:none;color:#202124}.counts .n{font-weight:700;font-variant-numeric:tabular-nums}
table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:.25rem .45rem;text-align:left;vertical-align:top}
.changes td:first-child{white-space:nowrap}.regression{color:var(--fail);font-weight:600}.better{color:var(--ok)}.changed{color:var(--warn)}
.filters{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start;background:var(--bg);padding:.6rem .8rem;border-radius:6px}
.filters fieldset{border:0;margin:0;padding:0}.filters legend{font-weight:600;padding:0;margin-bottom:.2rem}.filters label{margin-right:.7rem;white-space:nowrap;cursor:pointer}
.finding{border:1px solid var(--line);border-radius:6px;margin:.4rem 0}.finding summary{cursor:pointer;padding:.4rem .6rem;list-style-position:inside}
.finding dl{margin:0;padding:.2rem .8rem .6rem;display:grid;grid-template-columns:max-content 1fr;gap:.2rem .8rem}.finding dt{color:var(--muted)}.finding dd{margin:0;min-width:0}
.k-fail{color:var(--fail)}.k-flaky,.k-warn,.k-untested{color:var(--warn)}.k-baselined,.k-covered,.k-not-applicable{color:var(--muted)}.k-pass{color:var(--ok)}
.finding-section h3{margin:1.2rem 0 .4rem}.spread{font-weight:600}.gate{font-weight:700;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.gate-pass{color:var(--ok)}.gate-fail{color:var(--fail)}.down{margin:.3rem 0}.k-storyboard{color:var(--warn)}
.matrix-wrap{overflow:auto;max-height:80vh}.matrix th{position:sticky;top:0;background:#fff}.matrix tbody th{position:sticky;left:0;background:#fff;font-weight:400;white-space:nowrap}
.matrix td{text-align:center;min-width:2rem}.matrix thead th{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;max-height:14rem}
`;

const SCRIPT = `
(function () {
  var areas = Array.prototype.slice.call(document.querySelectorAll('input[name="area"]'));
  var statuses = Array.prototype.slice.call(document.querySelectorAll('input[name="status"]'));
  var findings = Array.prototype.slice.call(document.querySelectorAll('.finding'));
  var sections = Array.prototype.slice.call(document.querySelectorAll('.finding-section'));
  var rows = Array.prototype.slice.call(document.querySelectorAll('.matrix tbody tr'));
  var none = document.getElementById('no-findings');
  var count = document.getElementById('finding-count');
  function apply() {
    var area = '';
    areas.forEach(function (a) { if (a.checked) area = a.value; });
    var on = {};
    statuses.forEach(function (s) { on[s.value] = s.checked; });
    var shown = 0;
    findings.forEach(function (f) {
      var visible = (!area || f.getAttribute('data-area') === area) && on[f.getAttribute('data-status')] === true;
      f.hidden = !visible;
      if (visible) shown++;
    });
    rows.forEach(function (r) { r.hidden = !!area && r.getAttribute('data-area') !== area; });
    sections.forEach(function (s) { s.hidden = !s.querySelector('.finding:not([hidden])'); });
    if (none) none.hidden = shown > 0;
    if (count) count.textContent = shown + ' of ' + findings.length + ' findings shown';
  }
  areas.concat(statuses).forEach(function (i) { i.addEventListener('change', apply); });
  apply();
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Only https URLs become links; anything else (a docs/checks.md anchor of this harness) stays text. */
function specLink(o: ReportOutcome): string {
  if (/^https:\/\/[^\s"'<>`]+$/.test(o.specUrl)) return `<a href="${h(o.specUrl)}" rel="noreferrer noopener">${h(o.spec)}</a>`;
  return `${h(o.spec)} <span class="muted">(${h(o.specUrl)})</span>`;
}

/** `summary`: summarize(report), when the caller has it already (one run renders several forms of it). */
export function renderHtmlReport(report: RunReport, summary: RunSummary = summarize(report)): string {
  const harness = summary.harnessVersion;
  const { verdict, text } = summary.headline;
  const g = summary.gate;
  const body: string[] = [];
  body.push(
    `<header><h1>AdCP conformance</h1><p id="run-verdict" class="verdict v-${verdict}">${VERDICT_MARK[verdict]} ${h(text)}</p>`,
    `<p id="gate" class="gate ${g.pass ? 'gate-pass' : 'gate-fail'}" data-exit-code="${g.exitCode}">${h(g.text)}</p>`,
  );
  if (report.run) {
    const r = report.run;
    body.push(
      `<p class="muted" id="provenance">Run ${h(r.startedAt)} → ${h(r.endedAt)} · adcp-conformance ${h(r.harnessVersion)} · Node ${h(r.node)} · MCP SDK ${h(r.mcpSdkVersion)} · @adcp/sdk ${h(r.adcpSdkVersion)} · schemas: ${h(r.schemaSource.kind)} ${h(r.schemaSource.location)} (${h(r.schemaSource.versions.join(', ') || 'none')})${r.config ? ` · config ${h(r.config)}` : ''}</p>`,
    );
  }
  body.push(`<p id="baselines">${h(baselineUse(report).text)}</p>`);
  if (report.cutShort) body.push(`<p class="v-incomplete" id="cut-short">Run cut short: ${h(report.cutShort)}</p>`);
  const configErrors = configErrorsOf(report);
  if (configErrors.length)
    body.push(
      `<div id="config-errors" class="v-nonconformant"><strong>Config errors (exit 2):</strong><ul>${configErrors.map((e) => `<li>${h(e)}</li>`).join('')}</ul></div>`,
    );
  body.push('</header>');

  // The comparison comes first: what changed since the compared run is what a nightly reader looks for.
  if (report.comparison) {
    const c = report.comparison;
    const regressions =
      report.failOn === 'regressions'
        ? ` <span class="${regressionCount(c) ? 'regression' : 'better'}">(--fail-on regressions: ${regressionCount(c)} regression(s))</span>`
        : '';
    const rows = changeRows(c).map((r) => {
      const cls = r.kind.regression ? 'regression' : r.kind.label === 'fixed' || r.kind.label === 'back online' ? 'better' : 'changed';
      return `<tr data-change="${h(r.kind.key)}"><td class="${cls}">${h(r.kind.label)}</td><td>${h(r.agent)}</td><td><code>${h(r.what)}</code></td><td>${h(r.message)}</td></tr>`;
    });
    body.push(`<section id="comparison"><h2>Since the compared run</h2><p class="headline">${h(comparisonHeadline(c))}${regressions}</p>`);
    if (rows.length)
      body.push(
        `<table class="changes"><thead><tr><th>change</th><th>seller</th><th>check › tool</th><th>message</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
      );
    body.push('</section>');
  }

  body.push('<section id="sellers"><h2>Sellers</h2><div class="cards">');
  for (const [i, a] of report.agents.entries()) body.push(card(a, i, report.strict, harness, agentSummary(summary, a)));
  body.push('</div></section>');

  // Findings grouped by cause (a check on one seller, across its calls), one section per kind; an
  // unreachable seller's checks are all untested for one reason: one finding, not one per check.
  const sections = summary.findings;
  const storyboards = summary.storyboardFailures;
  const findingsOf = (kind: FilterKind) =>
    kind === 'storyboard' ? storyboards.length : (sections.find((x) => x.kind === kind)?.findings ?? 0);
  const total = FILTER_KINDS.reduce((n, k) => n + findingsOf(k.kind), 0);
  const areas = [...new Set(report.agents.flatMap((a) => a.outcomes.map((o) => areaOf(o.check))))];
  body.push('<section id="findings"><h2>Findings</h2>');
  body.push('<div class="filters" id="filters"><fieldset><legend>Check area</legend>');
  body.push(`<label><input type="radio" name="area" value="" checked> all</label>`);
  for (const area of areas) body.push(`<label><input type="radio" name="area" value="${h(area)}"> ${h(area)}</label>`);
  body.push('</fieldset><fieldset><legend>Status</legend>');
  // The storyboards and the baseline-covered untested have a filter only when there is something to filter.
  for (const { kind, label } of FILTER_KINDS.filter((k) => findingsOf(k.kind) > 0 || (k.kind !== 'storyboard' && k.kind !== 'covered')))
    body.push(
      `<label><input type="checkbox" name="status" value="${kind}"${kind === 'baselined' || kind === 'covered' ? '' : ' checked'}> <span class="k-${kind}">${h(label)}</span> (${findingsOf(kind)})</label>`,
    );
  body.push(`</fieldset><p class="muted" id="finding-count">${total} findings</p></div>`);
  body.push('<noscript><p class="muted">The filters need JavaScript; every finding is listed below.</p></noscript>');
  for (const s of sections) body.push(findingSection(s, report.strict));
  if (storyboards.length) {
    const outcomes = storyboards.reduce((n, f) => n + f.outcomes.length, 0);
    const heading = FILTER_KINDS.find((k) => k.kind === 'storyboard')?.heading ?? '';
    body.push(
      `<section class="finding-section" id="findings-storyboard" data-status="storyboard" data-outcomes="${outcomes}" data-findings="${storyboards.length}"><h3>${h(heading)} <span class="muted">(${sectionCounts({ outcomes, findings: storyboards.length })})</span></h3>${storyboards.map((f) => finding(f, 'storyboard')).join('')}</section>`,
    );
  }
  body.push(`<p id="no-findings" class="muted"${total ? ' hidden' : ''}>No finding matches the filters.</p></section>`);

  body.push(matrix(report));

  const csp = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; img-src 'none'; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${h(csp)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>AdCP conformance: ${h(verdict)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    ...body,
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function card(a: AgentReport, i: number, strict: boolean, harness: string, { counts: c, flaky }: AgentSummary): string {
  const v = agentVerdict(a, strict);
  const why = incompleteReason(a, strict);
  const sb = storyboardCounts(a);
  const counts: Array<[string, number]> = [
    ['pass', c.pass],
    ['fail', c.fail],
    ['flaky', flaky],
    ['warn', c.warn],
    ['untested', c.untested],
    ['n/a', c.notApplicable],
    ['baselined', c.baselined],
  ];
  const down = !a.reachable && a.down;
  return [
    `<article class="card v-${v}" id="seller-${i}" data-agent="${h(a.name)}" data-verdict="${v}">`,
    `<h3>${h(a.name)}</h3>`,
    `<p class="verdict v-${v}">${VERDICT_MARK[v]} ${h(v)}</p>`,
    down
      ? `<p class="down v-incomplete" data-down="${h(a.down!.cause)}"><strong>down: ${h(downWords(a.down!.cause))}</strong> — ${h(a.down!.detail)}</p><p class="fix">fix: ${h(a.down!.fix)}</p>`
      : '',
    `<p class="muted">${h(verdictText(v, a.adcpVersion, harness, c.baselined))}</p>`,
    a.adcpVersionReason ? `<p class="muted" data-adcp-release>AdCP ${h(a.adcpVersion ?? '—')}: ${h(a.adcpVersionReason)}</p>` : '',
    `<p class="muted">${h(a.transport)} · MCP ${h(a.protocolVersion ?? '—')} · ${h([a.server.name, a.server.version].filter((s) => s !== null).join(' ') || 'server unknown')}</p>`,
    `<ul class="counts">${counts.map(([k, n]) => `<li data-count="${h(k)}">${h(k)} <span class="n">${n}</span></li>`).join('')}</ul>`,
    sb
      ? `<p class="muted" data-storyboards>storyboards (apart): ${sb.pass} pass, ${sb.fail} fail, ${sb.untested} untested, ${sb.notApplicable} n/a</p>`
      : '',
    why && !down ? `<p class="v-incomplete">${h(why)}</p>` : '',
    a.stderrTail ? `<pre>stderr: ${h(a.stderrTail)}</pre>` : '',
    sandboxNotes(a),
    taskNotes(a),
    '</article>',
  ].join('');
}

/** Created objects listed per card; the rest are in report.json. */
const CREATED_SHOWN = 50;

/** The card's account, its state rules out of reach (one grouped line, how to enable them), what its flows created. */
function sandboxNotes(a: AgentReport): string {
  const account = accountLine(a);
  const reach = outOfReachLine(a);
  const heading = createdHeading(a);
  const created = a.created ?? [];
  const more = Math.max(0, created.length - CREATED_SHOWN) + (a.createdOmitted ?? 0);
  return [
    account ? `<p class="muted" data-account="${h(a.account?.source ?? '')}">${h(account)}</p>` : '',
    reach
      ? `<p class="muted" data-state-rules-out-of-reach="${a.stateRulesOutOfReach?.length ?? 0}">${h(reach)}</p><p class="muted enable">${h(ENABLE_STATE_RULES)}</p>`
      : '',
    heading
      ? `<details data-created="${created.length + (a.createdOmitted ?? 0)}"><summary>${h(heading)}</summary><ul>${created
          .slice(0, CREATED_SHOWN)
          .map((c) => `<li>${h(createdText(c))}</li>`)
          .join('')}${more > 0 ? `<li>… ${more} more in report.json</li>` : ''}</ul></details>`
      : '',
  ].join('');
}

/** The task lifecycle call by call with each request and answer, and every webhook delivery with its signature and body. */
function taskNotes(a: AgentReport): string {
  const trace = a.taskTrace;
  const w = a.webhooks;
  const calls = trace
    ? `<details data-task-trace="${trace.calls.length}"><summary>${h(trace.text)}</summary><ul>${trace.calls
        .map(
          (c) =>
            `<li data-step="${h(c.step)}" data-status="${h(c.status)}">${h(traceCallText(c))}<pre>sent: ${h(c.request)}${c.answer ? `\nanswered: ${h(c.answer)}` : ''}</pre></li>`,
        )
        .join('')}</ul></details>`
    : '';
  const more = w ? Math.max(0, w.deliveries.length - DELIVERIES_SHOWN) + w.omitted : 0;
  const deliveries = w
    ? `<details data-webhooks="${w.deliveries.length + w.omitted}"><summary>${h(webhookHeading(w))}</summary><ul>${w.deliveries
        .slice(0, DELIVERIES_SHOWN)
        .map(
          (d) =>
            `<li data-verified="${d.verification ? String(d.verification.ok) : 'none'}"${d.verification?.ok === false ? ' class="v-nonconformant"' : ''}>${h(deliveryText(d))}<pre>${h(d.body)}</pre></li>`,
        )
        .join('')}${more > 0 ? `<li>… ${more} more in report.json</li>` : ''}</ul></details>`
    : '';
  return calls + deliveries;
}

/** Webhook deliveries listed per card; the rest are in report.json. */
const DELIVERIES_SHOWN = 50;

/** One section of findings: its heading counts outcomes (the cards' column) and findings. */
function findingSection(s: FindingSection, strict: boolean): string {
  if (!s.findings) return '';
  const kind = FILTER_KINDS.find((k) => k.kind === s.kind);
  const heading =
    s.kind === 'warn'
      ? `${kind?.heading ?? ''}: ${strict ? 'failing the run (--strict)' : 'fail only under --strict'}`
      : (kind?.heading ?? '');
  return [
    `<section class="finding-section" id="findings-${s.kind}" data-status="${s.kind}" data-outcomes="${s.outcomes}" data-findings="${s.findings}">`,
    `<h3>${h(heading)} <span class="muted">(${sectionCounts(s)})</span></h3>`,
    ...s.unreachable.map(unreachableFinding),
    ...s.groups.map((g) => finding(g, s.kind)),
    '</section>',
  ].join('');
}

function unreachableFinding(u: UnreachableUntested): string {
  const why = u.agent.down ? `down: ${downWords(u.agent.down.cause)}` : 'initialize did not answer';
  return `<div class="finding" data-area="" data-status="untested" data-agent="${h(u.agent.name)}" data-seller="${u.agentIndex}" data-outcomes="${u.outcomes}"><details><summary><span class="k-untested">untested</span> <strong>${h(u.agent.name)}</strong> every check (${u.outcomes}) <span class="muted">the seller could not be reached: ${h(why)}</span></summary><dl><dt>why</dt><dd>${h(u.agent.down?.detail ?? u.agent.incomplete ?? 'initialize did not answer')}</dd></dl></details></div>`;
}

/** The evidence rows of one call. */
function callRows(o: ReportOutcome): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  const ev = o.evidence;
  if (o.pointer !== undefined)
    rows.push(['at', `<code>${h(o.pointer || '/')}</code>`], ['expected', h(o.expected ?? '')], ['found', h(o.found ?? '')]);
  else if (o.message) rows.push(['detail', h(o.message)]);
  for (const e of o.schemaErrors ?? [])
    rows.push(['schema', `<code>${h(e.pointer || '/')}</code> ${h(e.keyword)}: expected ${h(e.expected)}; found ${h(e.found)}`]);
  if (o.schemaErrorsOmitted) rows.push(['schema', `… ${o.schemaErrorsOmitted} more`]);
  if (ev?.diagnosis) rows.push(['diagnosis', h(ev.diagnosis)]);
  if (ev?.sameCauseAs) rows.push(['root cause', `reported with ${h(ev.sameCauseAs)}`]);
  if (ev?.request) rows.push(['request', `<pre>${h(ev.request)}</pre>`]);
  if (ev?.answer) rows.push(['answer', `<pre>${h(ev.answer)}</pre>`]);
  if (ev?.stderr) rows.push(['stderr', `<pre>${h(ev.stderr)}</pre>`]);
  if (o.durationMs !== undefined) rows.push(['duration', `${o.durationMs} ms`]);
  for (const r of ev?.related ?? [])
    rows.push([
      `with call ${r.call}`,
      `${h(r.tool)}${r.request ? `<pre>sent: ${h(r.request)}</pre>` : ''}${r.answer ? `<pre>answered: ${h(r.answer)}</pre>` : ''}`,
    ]);
  if (o.baseline !== undefined) rows.push(['baseline', h(o.baseline)]);
  if (o.flaky) rows.push(['flaky', 'failed, then passed when the call was made again in a fresh session']);
  if (o.coveredBy !== undefined) rows.push(['covered by', `the baselined failure ${h(o.coveredBy)}`]);
  return rows;
}

/** Tool labels listed per finding; the rest are counted. */
const CALLS_SHOWN = 50;

/** One finding: a check on one seller across its calls, the evidence of the first call of each distinct message, fix and spec once. */
function finding(g: FindingGroup, kind: FilterKind): string {
  const first = g.outcomes[0]!;
  const single = g.outcomes.length === 1;
  const rows: Array<[string, string]> = [];
  if (!single)
    rows.push([
      'calls',
      h(
        callList(
          g.outcomes.map((o) => o.tool),
          CALLS_SHOWN,
        ),
      ),
    ]);
  for (const v of g.variants.slice(0, VARIANTS_SHOWN)) {
    if (g.variants.length > 1) rows.push(['on', `<strong>${h(callList(v.tools, CALLS_SHOWN))}</strong> (${v.tools.length})`]);
    rows.push(...callRows(v.first));
  }
  if (g.variants.length > VARIANTS_SHOWN)
    rows.push(['more', `${g.variants.length - VARIANTS_SHOWN} more distinct message(s): see report.json`]);
  if (first.fix) rows.push(['fix', h(first.fix)]);
  rows.push(['spec', specLink(first)]);
  const spread = groupSpread(g);
  const label = kind === 'storyboard' ? 'storyboard' : kind;
  const summary = `<span class="k-${kind}">${h(label)}</span> <strong>${h(g.agent.name)}</strong> <code>${h(g.check)}</code>${single ? ` › ${h(first.tool)}` : ''}${spread ? ` <span class="spread">${h(spread)}</span>` : ''} <span class="muted">[${h(first.severity)}] ${h(shortDetail(first))}</span>`;
  return `<div class="finding" data-area="${h(areaOf(g.check))}" data-status="${kind}" data-agent="${h(g.agent.name)}" data-seller="${g.agentIndex}" data-check="${h(g.check)}" data-outcomes="${g.outcomes.length}"><details><summary>${summary}</summary><dl>${rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${v}</dd>`).join('')}</dl></details></div>`;
}

/** Rows: every check the run judged, in the order judged (the catalog's); columns: the sellers. */
function matrix(report: RunReport): string {
  const checks = [...new Set(report.agents.flatMap((a) => a.outcomes.map((o) => o.check)))];
  const head = report.agents.map((a) => `<th scope="col" title="${h(a.name)}">${h(a.name)}</th>`).join('');
  // Each agent's outcomes by check, grouped once (not filtered once per check: thousands of outcomes each).
  const byCheck = report.agents.map((a) => {
    const groups = new Map<string, ReportOutcome[]>();
    for (const o of a.outcomes) {
      const list = groups.get(o.check);
      if (list) list.push(o);
      else groups.set(o.check, [o]);
    }
    return groups;
  });
  const rows = checks.map((check) => {
    const cells = report.agents.map((a, i) => {
      let worst: CellKind = 'none';
      const mine = byCheck[i]?.get(check) ?? [];
      for (const o of mine) {
        const k = cellKind(o);
        if (CELL_RANK[k] > CELL_RANK[worst]) worst = k;
      }
      const title = `${a.name} · ${check}: ${worst === 'none' ? 'not judged' : `${worst} (${mine.length} outcome${mine.length === 1 ? '' : 's'})`}`;
      return `<td class="k-${worst}" data-status="${worst}" title="${h(title)}">${CELL_MARK[worst]}</td>`;
    });
    return `<tr data-area="${h(areaOf(check))}" data-check="${h(check)}"><th scope="row"><code>${h(check)}</code></th>${cells.join('')}</tr>`;
  });
  const legend = (Object.keys(CELL_MARK) as CellKind[])
    .filter((k) => k !== 'none')
    .map((k) => `<span class="k-${k}">${CELL_MARK[k]} ${h(k)}</span>`)
    .join(' · ');
  return `<section id="matrix-section"><h2>Check × seller</h2><p class="muted">${legend} · the worst outcome of each check per seller</p><div class="matrix-wrap"><table class="matrix"><thead><tr><th scope="col">check</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}
