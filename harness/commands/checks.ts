// `adcp-conformance checks`: the catalog as a table (or JSON) — id, severity, live marker, title, and
// the reference-seller fault(s) that prove each check.
import type { Check } from '../checks/check.ts';
import { catalog, checkSeverityText, severityLabel } from '../checks/catalog.ts';
import { faults, trippedIds } from '../../sellers/faults.ts';

export interface CatalogRow {
  id: string;
  severity: 'MUST' | 'SHOULD' | 'MUST*';
  /** The level in words when it depends on the MCP revision or AdCP version (`MUST from MCP 2025-06-18; …`). */
  severityRule: string;
  scope: Check['scope'];
  live: boolean;
  /** A rule this harness adds to the AdCP / MCP ones (its specUrl is the README section that explains it). */
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

export function renderTable(rows: CatalogRow[]): string {
  const cells = rows.map((r) => [
    r.id,
    r.severity,
    r.live ? 'live' : '',
    r.title,
    r.faults.length > 0 ? r.faults.join(', ') : r.provenBy !== undefined ? `test: ${r.provenBy}` : '—',
  ]);
  const header = ['ID', 'SEVERITY', 'SCOPE', 'TITLE', 'PROVEN BY FAULT'];
  const all = [header, ...cells];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const line = (row: string[]): string => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  return [line(header), ...cells.map(line)].join('\n');
}

/** The README's catalog table (between its `<!-- catalog:start -->` / `<!-- catalog:end -->` markers). */
export function renderMarkdown(rows: CatalogRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const lines = ['| id | severity | what must hold | spec |', '|---|---|---|---|'];
  for (const r of rows) {
    const severity = r.severity === 'MUST*' ? `MUST* (${r.severityRule})` : r.severity;
    const spec = r.harnessAddition ? `[this harness's rule](${r.specUrl})` : `[${cell(r.spec)}](${r.specUrl})`;
    lines.push(`| \`${r.id}\` | ${cell(severity)} | ${cell(r.title)} | ${spec} |`);
  }
  return lines.join('\n');
}

const USAGE = `usage: adcp-conformance checks [--json | --markdown]

Lists every check: id, severity (MUST, SHOULD, or MUST* when the level depends on the MCP revision or
AdCP version), 'live' for checks that need a live session, title, and the reference-seller fault(s)
that prove it ('—' when none).

  --json       print the catalog as JSON
  --markdown   print the catalog as the README's Markdown table
  --help       this text`;

export async function main(argv: string[]): Promise<number> {
  let format: 'table' | 'json' | 'markdown' = 'table';
  for (const arg of argv) {
    if (arg === '--json') format = 'json';
    else if (arg === '--markdown') format = 'markdown';
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    } else {
      process.stderr.write(`adcp-conformance checks: unknown option '${arg}'\n\n${USAGE}\n`);
      return 2;
    }
  }
  const rows = catalogRows();
  const text =
    format === 'json'
      ? JSON.stringify(rows, null, 2)
      : format === 'markdown'
        ? renderMarkdown(rows)
        : `${renderTable(rows)}\n\n${rows.length} checks`;
  process.stdout.write(`${text}\n`);
  return 0;
}
