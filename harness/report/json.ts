// report.json: the stable, documented machine-readable report (README § "report.json").
// Bump REPORT_SCHEMA_VERSION on any change that is not a pure addition.
import { addCounts, countOutcomes, exitCodeOf, type Counts, type Layer, type RunReport } from './model.ts';
import type { Severity, Status } from '../checks/check.ts';

export const REPORT_SCHEMA_VERSION = 1;

export interface ReportJsonOutcome {
  check: string;
  tool: string;
  status: Status;
  message: string;
  severity: Severity;
  spec: string;
  pointer?: string;
  expected?: string;
  found?: string;
  baseline?: string;
}

export interface ReportJsonAgent {
  name: string;
  transport: 'http' | 'stdio';
  protocolVersion: string | null;
  server: { name: string | null; version: string | null };
  adcpVersion: string | null;
  reachable: boolean;
  incomplete: string | null;
  aborted: string | null;
  outcomes: ReportJsonOutcome[];
  layers: Record<Layer, number>;
  summary: Counts;
}

export interface ReportJson {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  strict: boolean;
  complete: boolean;
  exitCode: 0 | 1 | 3;
  agents: ReportJsonAgent[];
  summary: Counts;
}

export function buildReportJson(report: RunReport): ReportJson {
  let summary: Counts = { pass: 0, fail: 0, warn: 0, skip: 0, baselined: 0 };
  const agents = report.agents.map((a): ReportJsonAgent => {
    const counts = countOutcomes(a.outcomes);
    summary = addCounts(summary, counts);
    return {
      name: a.name,
      transport: a.transport,
      protocolVersion: a.protocolVersion,
      server: { name: a.server.name, version: a.server.version },
      adcpVersion: a.adcpVersion,
      reachable: a.reachable,
      incomplete: a.incomplete,
      aborted: a.aborted,
      // Explicit field lists: nothing from a seller is ever spread into the report.
      outcomes: a.outcomes.map((o) => {
        const out: ReportJsonOutcome = { check: o.check, tool: o.tool, status: o.status, message: o.message, severity: o.severity, spec: o.spec };
        if (o.pointer !== undefined) out.pointer = o.pointer;
        if (o.expected !== undefined) out.expected = o.expected;
        if (o.found !== undefined) out.found = o.found;
        if (o.baseline !== undefined) out.baseline = o.baseline;
        return out;
      }),
      layers: { validate_root: a.layers.validate_root, legacy_wrapper: a.layers.legacy_wrapper, missing: a.layers.missing, schema: a.layers.schema },
      summary: counts,
    };
  });
  const exitCode = exitCodeOf(report);
  return { schemaVersion: REPORT_SCHEMA_VERSION, strict: report.strict, complete: exitCode !== 3, exitCode, agents, summary };
}
