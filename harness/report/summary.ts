// One summary of a run, computed once, that the terminal, Markdown and HTML renderers format: the
// headline, the gate that decides the exit code, each agent's catalog counts, the findings by section,
// the storyboard failures, and how many untested outcomes leave a verdict incomplete. A renderer that
// needs a number reads it here, so the three can never disagree.
import { HARNESS_VERSION } from '../version.ts';
import { catalogCounts, catalogOutcomes } from './counts.ts';
import { catalogFindings, findingKind, storyboardFailures, type FindingGroup, type FindingSection } from './findings.ts';
import { gate, headline, type Gate } from './gate.ts';
import { leavesUnverified, type AgentReport, type Counts, type RunReport } from './model.ts';

export interface AgentSummary {
  /** Catalog outcomes by bucket (storyboards counted apart). */
  counts: Counts;
  /** Outcomes that failed once and passed when asked again. */
  flaky: number;
}

export interface RunSummary {
  /** The harness version the run was measured with (the report's own, else this one). */
  harnessVersion: string;
  headline: ReturnType<typeof headline>;
  gate: Gate;
  agents: ReadonlyMap<AgentReport, AgentSummary>;
  findings: FindingSection[];
  storyboardFailures: FindingGroup[];
  /** Untested outcomes of reachable agents that leave their verdict incomplete. */
  openUnverified: number;
}

export function summarize(report: RunReport): RunSummary {
  const harnessVersion = report.run?.harnessVersion ?? HARNESS_VERSION;
  const agents = new Map<AgentReport, AgentSummary>();
  let openUnverified = 0;
  for (const a of report.agents) {
    const outcomes = catalogOutcomes(a);
    agents.set(a, { counts: catalogCounts(a), flaky: outcomes.filter((o) => findingKind(o) === 'flaky').length });
    if (a.reachable) openUnverified += outcomes.filter((o) => leavesUnverified(o, report.strict)).length;
  }
  return {
    harnessVersion,
    headline: headline(report, harnessVersion),
    gate: gate(report),
    agents,
    findings: catalogFindings(report),
    storyboardFailures: storyboardFailures(report),
    openUnverified,
  };
}

/** An agent's summary (an agent not in the summarized report is summarized alone). */
export function agentSummary(summary: RunSummary, a: AgentReport): AgentSummary {
  return summary.agents.get(a) ?? { counts: catalogCounts(a), flaky: catalogOutcomes(a).filter((o) => findingKind(o) === 'flaky').length };
}
