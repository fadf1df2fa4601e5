// What the CLI hands to the vitest suite for one agent (a JSON file per agent, its directory passed
// through vitest's `provide`), and what the suite hands back to reporters through task meta.
import type { AgentFacts, ReportOutcome } from '../report/model.ts';

export interface AgentSuiteData {
  facts: AgentFacts;
  outcomes: ReportOutcome[];
  /** `--strict`: a warning fails its test case. */
  strict: boolean;
  /** `--junit-all`: not-applicable outcomes are test cases too. */
  junitAll?: boolean;
  /** How many agents the whole run (all shards) has: a merge missing a shard knows it is missing some. */
  runAgents?: number;
}

/** Key of `provide` / `inject`: the directory holding one `<key>.json` per agent. */
export const DATA_DIR_KEY = 'adcpConformanceDataDir';

/**
 * Key of `provide` / `inject`: whether the outcomes travel in the describe block's meta. Only a run that
 * writes a blob (for --merge-reports) needs them there; a live run's reporters take them from the run
 * itself (OutcomeCollector's `outcomesOf`), which spares a copy of every outcome per agent.
 */
export const META_OUTCOMES_KEY = 'adcpConformanceMetaOutcomes';

/** In the data directory when the run stopped before every agent's data was written: waiting suites give up. */
export const ABANDONED_FILE = 'ABANDONED';

declare module 'vitest' {
  interface ProvidedContext {
    adcpConformanceDataDir: string;
    adcpConformanceMetaOutcomes: boolean;
  }
}

// TaskMeta is @vitest/runner's (vitest re-exports it: augmenting it through 'vitest' does not merge).
declare module '@vitest/runner' {
  interface TaskMeta {
    /** On an agent's describe block: its facts. */
    adcpAgent?: AgentFacts;
    /** On an agent's describe block: every outcome, in order (not-applicable ones included); only when META_OUTCOMES_KEY. */
    adcpOutcomes?: ReportOutcome[];
    /** On an agent's describe block: how the run judged (strict) and listed (junitAll) its outcomes. */
    adcpRun?: { strict: boolean; junitAll: boolean; agents?: number };
  }
}

/** The test case name of an outcome: `<check id> › <tool>`. */
export function caseName(check: string, tool: string): string {
  return `${check} › ${tool}`;
}

/**
 * The test cases of an agent's suite, in order, with unique names (the same check and tool can be judged
 * more than once: a config may probe one tool twice → `… (2)`). Not-applicable outcomes are cases only
 * with --junit-all. The suite and the reporters both name cases with this, so they always agree.
 */
export function testCases(outcomes: readonly ReportOutcome[], junitAll: boolean): Array<{ name: string; outcome: ReportOutcome }> {
  const seen = new Map<string, number>();
  const cases: Array<{ name: string; outcome: ReportOutcome }> = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'not-applicable' && !junitAll) continue;
    const base = caseName(outcome.check, outcome.tool);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    cases.push({ name: n === 1 ? base : `${base} (${n})`, outcome });
  }
  return cases;
}
