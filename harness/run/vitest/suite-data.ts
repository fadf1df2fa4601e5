// What the CLI hands to the vitest suite for one agent (a JSON file per agent, its directory passed
// through vitest's `provide`), and what the suite hands back to reporters through task meta.
import type { AgentFacts, ReportOutcome } from '../../report/model.ts';
import type { CaseStatus, TestCase } from '../../report/test-cases.ts';

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

/** Key of `provide` / `inject`: the directory holding one `<key>.json` per agent (a SuiteFile). */
export const DATA_DIR_KEY = 'adcpConformanceDataDir';

/** What one test case does, as the suite replays it (test-cases.ts decided it). */
export interface CaseVerdict {
  name: string;
  status: CaseStatus;
  /** fail: the failure message · skip: the reason (absent on a pass). */
  message?: string;
  /** Lines for system-out (absent when none). */
  notes?: string[];
}

/**
 * An agent's data file, as its suite reads it: its facts and its test cases, already judged — the suite
 * replays them and nothing else. The outcomes themselves travel only for a blob (the describe block's meta
 * carries them to --merge-reports); a live run's reporters take them from the run itself.
 */
export interface SuiteFile {
  facts: AgentFacts;
  strict: boolean;
  junitAll: boolean;
  runAgents?: number;
  cases: CaseVerdict[];
  outcomes?: ReportOutcome[];
}

/** The data file of an agent: its test cases (see testCases) and, for a blob, its outcomes. */
export function suiteFile(data: AgentSuiteData, cases: readonly TestCase[], withOutcomes: boolean): SuiteFile {
  return {
    facts: data.facts,
    strict: data.strict,
    junitAll: data.junitAll === true,
    ...(data.runAgents === undefined ? {} : { runAgents: data.runAgents }),
    cases: cases.map(({ name, status, message, notes }) => ({
      name,
      status,
      ...(message ? { message } : {}),
      ...(notes.length ? { notes } : {}),
    })),
    ...(withOutcomes ? { outcomes: data.outcomes } : {}),
  };
}

/** In the data directory when the run stopped before every agent's data was written: waiting suites give up. */
export const ABANDONED_FILE = 'ABANDONED';

declare module 'vitest' {
  interface ProvidedContext {
    adcpConformanceDataDir: string;
  }
}

// TaskMeta is @vitest/runner's (vitest re-exports it: augmenting it through 'vitest' does not merge).
declare module '@vitest/runner' {
  interface TaskMeta {
    /** On an agent's describe block: its facts. */
    adcpAgent?: AgentFacts;
    /** On an agent's describe block: every outcome, in order (not-applicable ones included); only in a run that writes a blob. */
    adcpOutcomes?: ReportOutcome[];
    /** On an agent's describe block: how the run judged (strict) and listed (junitAll) its outcomes. */
    adcpRun?: { strict: boolean; junitAll: boolean; agents?: number };
  }
}

// One test case per (check, tool), aggregating its outcomes: see harness/report/test-cases.ts (why, and how
// a case's status is decided). The suite and the reporters both name and judge cases with it.
export { caseName, testCases, type TestCase } from '../../report/test-cases.ts';
