// What the CLI hands to the vitest suite for one agent (a JSON file per agent, its directory passed
// through vitest's `provide`), and what the suite hands back to reporters through task meta.
import type { AgentFacts, ReportOutcome } from '../report/model.ts';

export interface AgentSuiteData {
  facts: AgentFacts;
  outcomes: ReportOutcome[];
  /** `--strict`: a warning fails its test case. */
  strict: boolean;
}

/** Key of `provide` / `inject`: the directory holding one `<key>.json` per agent. */
export const DATA_DIR_KEY = 'adcpConformanceDataDir';

declare module 'vitest' {
  interface ProvidedContext {
    adcpConformanceDataDir: string;
  }
  interface TaskMeta {
    /** On an agent's describe block. */
    adcpAgent?: AgentFacts;
    /** On each test case. */
    adcpOutcome?: ReportOutcome;
  }
}

/** The test case name of an outcome: `<check id> › <tool>`. */
export function caseName(check: string, tool: string): string {
  return `${check} › ${tool}`;
}
