// report.html: one self-contained page a person opens (from file:// or a CI artifact): the comparison
// first, a card per seller with its verdict and counts, every finding with its evidence, filters by
// check area and status, and a check × seller matrix. No network fetch of any kind: styles and the small
// filter script are inline, pinned by a Content-Security-Policy that allows nothing else (not even an
// image or a font), and every string is escaped (seller text arrives sanitized; escapeHtml makes it inert).
import { createHash } from 'node:crypto';
import { escapeHtml as h } from '../sanitize.ts';
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
  verdictText,
  type AgentReport,
  type ReportOutcome,
  type RunReport,
  type Verdict,
} from './model.ts';

/** How a finding is filed: the status filter's values. */
type FindingKind = 'fail' | 'flaky' | 'warn' | 'untested' | 'baselined';
const FINDING_KINDS: ReadonlyArray<{ kind: FindingKind; label: string }> = [
  { kind: 'fail', label: 'failures' },
  { kind: 'flaky', label: 'flaky' },
  { kind: 'warn', label: 'warnings (SHOULD)' },
  { kind: 'untested', label: 'not verified' },
  { kind: 'baselined', label: 'baselined' },
];

/** A matrix cell: the worst of an agent's outcomes of one check. */
type CellKind = FindingKind | 'pass' | 'not-applicable' | 'none';
const CELL_RANK: Record<CellKind, number> = {
  fail: 7,
  flaky: 6,
  warn: 5,
  untested: 4,
  baselined: 3,
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
  pass: '✓',
  'not-applicable': '–',
  none: '',
};
const VERDICT_MARK: Record<Verdict, string> = { conformant: '✓', nonconformant: '✗', incomplete: '⚠' };

function findingKind(o: ReportOutcome, strict: boolean): FindingKind | null {
  if (o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn')) return 'baselined';
  if (failsRun(o, strict)) return o.flaky ? 'flaky' : o.status === 'warn' ? 'warn' : 'fail';
  if (o.status === 'warn') return 'warn';
  if (leavesUnverified(o, strict)) return 'untested';
  return null;
}

function cellKind(o: ReportOutcome, strict: boolean): CellKind {
  return findingKind(o, strict) ?? (o.status === 'pass' ? 'pass' : o.status === 'not-applicable' ? 'not-applicable' : 'none');
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
.k-fail{color:var(--fail)}.k-flaky,.k-warn,.k-untested{color:var(--warn)}.k-baselined,.k-not-applicable{color:var(--muted)}.k-pass{color:var(--ok)}
.matrix-wrap{overflow:auto;max-height:80vh}.matrix th{position:sticky;top:0;background:#fff}.matrix tbody th{position:sticky;left:0;background:#fff;font-weight:400;white-space:nowrap}
.matrix td{text-align:center;min-width:2rem}.matrix thead th{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;max-height:14rem}
`;

const SCRIPT = `
(function () {
  var areas = Array.prototype.slice.call(document.querySelectorAll('input[name="area"]'));
  var statuses = Array.prototype.slice.call(document.querySelectorAll('input[name="status"]'));
  var findings = Array.prototype.slice.call(document.querySelectorAll('.finding'));
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
    if (none) none.hidden = shown > 0;
    if (count) count.textContent = shown + ' of ' + findings.length + ' findings shown';
  }
  areas.concat(statuses).forEach(function (i) { i.addEventListener('change', apply); });
  apply();
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Only https URLs become links; anything else (a README anchor of this harness) stays text. */
function specLink(o: ReportOutcome): string {
  if (/^https:\/\/[^\s"'<>`]+$/.test(o.specUrl)) return `<a href="${h(o.specUrl)}" rel="noreferrer noopener">${h(o.spec)}</a>`;
  return `${h(o.spec)} <span class="muted">(${h(o.specUrl)})</span>`;
}

export function renderHtmlReport(report: RunReport): string {
  const harness = report.run?.harnessVersion ?? HARNESS_VERSION;
  const verdict = runVerdict(report);
  const body: string[] = [];
  body.push(
    `<header><h1>AdCP conformance</h1><p id="run-verdict" class="verdict v-${verdict}">${VERDICT_MARK[verdict]} ${h(runVerdictWords(report, verdict, harness))}</p>`,
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
    const gate =
      report.failOn === 'regressions'
        ? ` <span class="${regressionCount(c) ? 'regression' : 'better'}">(--fail-on regressions: ${regressionCount(c)} regression(s))</span>`
        : '';
    const rows = changeRows(c).map((r) => {
      const cls = r.kind.regression ? 'regression' : r.kind.label === 'fixed' || r.kind.label === 'back online' ? 'better' : 'changed';
      return `<tr data-change="${h(r.kind.key)}"><td class="${cls}">${h(r.kind.label)}</td><td>${h(r.agent)}</td><td><code>${h(r.what)}</code></td><td>${h(r.message)}</td></tr>`;
    });
    body.push(`<section id="comparison"><h2>Since the compared run</h2><p class="headline">${h(comparisonHeadline(c))}${gate}</p>`);
    if (rows.length)
      body.push(
        `<table class="changes"><thead><tr><th>change</th><th>seller</th><th>check › tool</th><th>message</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
      );
    body.push('</section>');
  }

  body.push('<section id="sellers"><h2>Sellers</h2><div class="cards">');
  for (const [i, a] of report.agents.entries()) body.push(card(a, i, report.strict, harness));
  body.push('</div></section>');

  // An unreachable seller's checks are all untested for one reason, shown on its card: not listed one by one.
  const findings = report.agents.flatMap((a, i) =>
    a.outcomes.flatMap((o) => {
      const kind = findingKind(o, report.strict);
      return kind && (kind !== 'untested' || a.reachable) ? [{ a, i, o, kind }] : [];
    }),
  );
  const areas = [...new Set(report.agents.flatMap((a) => a.outcomes.map((o) => areaOf(o.check))))];
  const kindCount = (k: FindingKind) => findings.filter((f) => f.kind === k).length;
  body.push('<section id="findings"><h2>Findings</h2>');
  body.push('<div class="filters" id="filters"><fieldset><legend>Check area</legend>');
  body.push(`<label><input type="radio" name="area" value="" checked> all</label>`);
  for (const area of areas) body.push(`<label><input type="radio" name="area" value="${h(area)}"> ${h(area)}</label>`);
  body.push('</fieldset><fieldset><legend>Status</legend>');
  for (const { kind, label } of FINDING_KINDS)
    body.push(
      `<label><input type="checkbox" name="status" value="${kind}"${kind === 'baselined' ? '' : ' checked'}> <span class="k-${kind}">${h(label)}</span> (${kindCount(kind)})</label>`,
    );
  body.push(`</fieldset><p class="muted" id="finding-count">${findings.length} findings</p></div>`);
  body.push('<noscript><p class="muted">The filters need JavaScript; every finding is listed below.</p></noscript>');
  for (const f of findings) body.push(finding(f.a, f.i, f.o, f.kind));
  body.push(`<p id="no-findings" class="muted"${findings.length ? ' hidden' : ''}>No finding matches the filters.</p></section>`);

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

function runVerdictWords(report: RunReport, verdict: Verdict, harness: string): string {
  const versions = [...new Set(report.agents.map((a) => a.adcpVersion).filter((v): v is string => v !== null && v !== 'none'))];
  const many = report.agents.length === 1 ? '1 seller' : `${report.agents.length} sellers`;
  return `${many}: ${verdictText(verdict, versions.length === 1 ? (versions[0] ?? null) : null, harness)}${report.strict ? ' (strict)' : ''}`;
}

function card(a: AgentReport, i: number, strict: boolean, harness: string): string {
  const v = agentVerdict(a, strict);
  const c = countOutcomes(a.outcomes);
  const flaky = a.outcomes.filter((o) => o.flaky && failsRun(o, strict)).length;
  const why = incompleteReason(a, strict);
  const counts: Array<[string, number]> = [
    ['pass', c.pass],
    ['fail', c.fail],
    ['flaky', flaky],
    ['warn', c.warn],
    ['untested', c.untested],
    ['n/a', c.notApplicable],
    ['baselined', c.baselined],
  ];
  return [
    `<article class="card v-${v}" id="seller-${i}" data-agent="${h(a.name)}" data-verdict="${v}">`,
    `<h3>${h(a.name)}</h3>`,
    `<p class="verdict v-${v}">${VERDICT_MARK[v]} ${h(v)}</p>`,
    `<p class="muted">${h(verdictText(v, a.adcpVersion, harness))}</p>`,
    a.adcpVersionReason ? `<p class="muted" data-adcp-release>AdCP ${h(a.adcpVersion ?? '—')}: ${h(a.adcpVersionReason)}</p>` : '',
    `<p class="muted">${h(a.transport)} · MCP ${h(a.protocolVersion ?? '—')} · ${h([a.server.name, a.server.version].filter((s) => s !== null).join(' ') || 'server unknown')}</p>`,
    `<ul class="counts">${counts.map(([k, n]) => `<li data-count="${h(k)}">${h(k)} <span class="n">${n}</span></li>`).join('')}</ul>`,
    why ? `<p class="v-incomplete">${h(why)}</p>` : '',
    a.stderrTail ? `<pre>stderr: ${h(a.stderrTail)}</pre>` : '',
    '</article>',
  ].join('');
}

function finding(a: AgentReport, i: number, o: ReportOutcome, kind: FindingKind): string {
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
  if (o.baseline !== undefined) rows.push(['baseline', h(o.baseline)]);
  if (kind === 'flaky') rows.push(['flaky', 'failed, then passed when the call was made again in a fresh session']);
  if (o.fix) rows.push(['fix', h(o.fix)]);
  rows.push(['spec', specLink(o)]);
  const summary = `<span class="k-${kind}">${h(kind)}</span> <strong>${h(a.name)}</strong> <code>${h(o.check)}</code> › ${h(o.tool)} <span class="muted">[${h(o.severity)}] ${h(detailOf(o))}</span>`;
  return `<div class="finding" data-area="${h(areaOf(o.check))}" data-status="${kind}" data-agent="${h(a.name)}" data-seller="${i}"><details><summary>${summary}</summary><dl>${rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${v}</dd>`).join('')}</dl></details></div>`;
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
        const k = cellKind(o, report.strict);
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
