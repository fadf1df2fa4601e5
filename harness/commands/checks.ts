// `adcp-conformance checks`: the catalog as a table (or JSON) — id, severity, live marker, title, and
// the reference-seller fault(s) that prove each check.
import type { Check } from '../checks/check.ts';
import { catalog, severityLabel } from '../checks/catalog.ts';
import { faults } from '../../sellers/faults.ts';

export interface CatalogRow {
  id: string;
  severity: 'MUST' | 'SHOULD' | 'MUST*';
  scope: Check['scope'];
  live: boolean;
  title: string;
  spec: string;
  faults: string[];
}

export function catalogRows(): CatalogRow[] {
  return catalog.map((c) => ({
    id: c.id,
    severity: severityLabel(c),
    scope: c.scope,
    live: c.live,
    title: c.title,
    spec: c.spec,
    faults: faults.filter((f) => f.trips.includes(c.id)).map((f) => f.name),
  }));
}

export function renderTable(rows: CatalogRow[]): string {
  const cells = rows.map((r) => [r.id, r.severity, r.live ? 'live' : '', r.title, r.faults.length > 0 ? r.faults.join(', ') : '—']);
  const header = ['ID', 'SEVERITY', 'SCOPE', 'TITLE', 'PROVEN BY FAULT'];
  const all = [header, ...cells];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const line = (row: string[]): string => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  return [line(header), ...cells.map(line)].join('\n');
}

const USAGE = `usage: adcp-conformance checks [--json]

Lists every check: id, severity (MUST, SHOULD, or MUST* when the level depends on the MCP revision or
AdCP version), 'live' for checks that need a live session, title, and the reference-seller fault(s)
that prove it ('—' when none).

  --json   print the catalog as JSON
  --help   this text`;

export async function main(argv: string[]): Promise<number> {
  let json = false;
  for (const arg of argv) {
    if (arg === '--json') json = true;
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    } else {
      process.stderr.write(`adcp-conformance checks: unknown option '${arg}'\n\n${USAGE}\n`);
      return 2;
    }
  }
  const rows = catalogRows();
  process.stdout.write(json ? `${JSON.stringify(rows, null, 2)}\n` : `${renderTable(rows)}\n\n${rows.length} checks\n`);
  return 0;
}
