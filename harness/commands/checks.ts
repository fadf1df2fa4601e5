// `adcp-conformance checks [ID | AREA]…`: the catalog as a table (or JSON, or Markdown) — id, severity,
// live marker, title, and the reference-seller fault(s) that prove each check; with ids, each explained.
import type { Check } from '../checks/check.ts';
import { catalog, checkById, checkSeverityText, severityLabel } from '../checks/catalog.ts';
import { areasOf } from '../run/options.ts';
import { didYouMean, parseCommandArgs, UsageError, usageErrorText } from '../run/usage-error.ts';
import { faults, trippedIds } from '../../sellers/faults.ts';
import { explainCheck, WIDTH, wrap } from './checks-explain.ts';

export interface CatalogRow {
  id: string;
  severity: 'MUST' | 'SHOULD' | 'MUST*';
  /** The level in words when it depends on the MCP revision or AdCP version (`MUST from MCP 2025-06-18; …`). */
  severityRule: string;
  scope: Check['scope'];
  live: boolean;
  /** A rule this harness adds to the AdCP / MCP ones (its specUrl is its section of docs/checks.md). */
  harnessAddition: boolean;
  title: string;
  spec: string;
  specUrl: string;
  fix: string;
  faults: string[];
  /** For a check no seller fault can trip (it judges the config): the live test that proves it. */
  provenBy?: string;
}

export function catalogRows(): CatalogRow[] {
  return catalog.map((c) => ({
    id: c.id,
    severity: severityLabel(c),
    severityRule: checkSeverityText(c),
    scope: c.scope,
    live: c.live,
    harnessAddition: c.harnessAddition === true,
    title: c.title,
    spec: c.spec.label,
    specUrl: c.spec.url,
    fix: c.fix,
    faults: faults.filter((f) => trippedIds(f).includes(c.id)).map((f) => f.name),
    ...(c.provenBy !== undefined ? { provenBy: c.provenBy } : {}),
  }));
}

/**
 * The catalog as a table of at most WIDTH columns: id, severity, live marker and the title wrapped in its
 * column, then a `proven by` line (wrapped too) naming the faults or the test that prove the check.
 */
export function renderTable(rows: CatalogRow[]): string {
  const header = ['ID', 'SEVERITY', 'SCOPE', 'TITLE'];
  const fixed = [header[0]!, ...rows.map((r) => r.id)].map((s) => s.length);
  const widths = [Math.max(...fixed), header[1]!.length, header[2]!.length];
  const indent = widths.reduce((sum, w) => sum + w + 2, 0);
  const titleWidth = WIDTH - indent;
  const lead = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ') + '  ';
  const lines = [lead(header.slice(0, 3)) + header[3]];
  for (const r of rows) {
    const title = wrap(r.title, titleWidth);
    lines.push(lead([r.id, r.severity, r.live ? 'live' : '']) + title[0]);
    const proof = r.faults.length > 0 ? r.faults.join(', ') : r.provenBy !== undefined ? `test ${r.provenBy}` : '—';
    for (const line of [...title.slice(1), ...wrap(`proven by ${proof}`, titleWidth)]) lines.push(' '.repeat(indent) + line);
  }
  return lines.join('\n');
}

/**
 * The catalog table of docs/checks.md (between its `<!-- catalog:start -->` / `<!-- catalog:end -->` markers,
 * written by `npm run catalog`). A harness addition links its section on that same page (`#transportcall`).
 */
export function renderMarkdown(rows: CatalogRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const lines = ['| id | severity | what must hold | spec |', '|---|---|---|---|'];
  for (const r of rows) {
    const severity = r.severity === 'MUST*' ? `MUST* (${r.severityRule})` : r.severity;
    const spec = r.harnessAddition
      ? `[this harness's rule](${r.specUrl.replace(/^docs\/checks\.md(?=#)/, '')})`
      : `[${cell(r.spec)}](${r.specUrl})`;
    lines.push(`| \`${r.id}\` | ${cell(severity)} | ${cell(r.title)} | ${spec} |`);
  }
  return lines.join('\n');
}

const USAGE = `usage: adcp-conformance checks [ID | AREA]… [--json | --markdown]

Lists every check: id, severity (MUST, SHOULD, or MUST* when the level depends on the MCP revision or
AdCP version), 'live' for checks that need a live session, title, and the reference-seller fault(s)
that prove it. With check ids, explains each: its rule, severity, spec, fix, the faults that prove it
fails and a command that shows one failing. With an area (e.g. 'envelope'), lists only its checks.

  --json       print the catalog (or the checks named) as JSON
  --markdown   print the catalog (or the checks named) as the Markdown table of docs/checks.md
  -h, --help   this text`;

export async function main(argv: string[]): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = parseCommandArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, markdown: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
    if (values.json && values.markdown) throw new UsageError('--json or --markdown: one format at a time');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(usageErrorText('checks', err.message));
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const ids = catalog.map((c) => c.id);
  const areas = areasOf(ids);
  const unknown = positionals.find((p) => !ids.includes(p) && !areas.includes(p));
  if (unknown !== undefined) {
    process.stderr.write(usageErrorText('checks', `no check '${unknown}'${didYouMean(unknown, [...ids, ...areas])}`));
    return 2;
  }
  const wanted = (id: string) =>
    positionals.length === 0 || positionals.some((p) => p === id || id.startsWith(p.endsWith('.') ? p : `${p}.`));
  const rows = catalogRows().filter((r) => wanted(r.id));
  let text: string;
  if (values.json) text = JSON.stringify(rows, null, 2);
  else if (values.markdown) text = renderMarkdown(rows);
  else if (positionals.length > 0 && positionals.every((p) => ids.includes(p)))
    text = positionals.map((id) => explainCheck(checkById(id)!, faults)).join('\n\n');
  else text = `${renderTable(rows)}\n\n${rows.length} checks; 'adcp-conformance checks ID' explains one (rule, spec, fix, proving faults)`;
  process.stdout.write(`${text}\n`);
  return 0;
}
