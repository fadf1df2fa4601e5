// A vitest reporter that reads the run back out of vitest: agent facts from each agent's describe
// meta, outcomes from the describe meta (a blob) or the live run itself. It sees a live run and a
// --merge-reports replay of blobs the same way, so sharded and single runs produce the same reports; the
// JUnit test cases are named and judged by the suite's own testCases() (one per check × tool).
import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import type { AgentReport } from '../report/model.ts';
import type { JunitSuiteInfo } from '../report/junit.ts';
import { agentProperties } from '../report/junit.ts';
import { stripUnsafe, truncate } from '../sanitize.ts';
import { keyOfSuiteFile, testCases, type TestCase } from './vitest/index.ts';
import type { ReportOutcome } from '../report/model.ts';

export interface CollectedRun {
  /** Per suite-file key: the agent as its suite reported it. */
  agents: Map<string, AgentReport>;
  junit: JunitSuiteInfo[];
  /** Suite files that did not report an agent (load error, crash), with why. */
  broken: Map<string, string>;
  errors: string[];
  /** How many agents the run that wrote these suites had (all shards), when the suites say. */
  runAgents?: number;
}

export class OutcomeCollector implements Reporter {
  /** Suite-file key → agent name, known as soon as a module is collected (JUnit classnames use it). */
  readonly names = new Map<string, string>();
  result: CollectedRun | undefined;

  /**
   * `outcomesOf`: a live run's own outcomes by suite-file key, for suites that did not carry them in
   * their meta (see SuiteFile); a merge reads them from the blobs' meta. `casesOf`: the test cases the
   * live run made of them (made again from the outcomes when absent, as in a merge).
   */
  constructor(
    private readonly outcomesOf?: (key: string) => ReportOutcome[] | undefined,
    private readonly casesOf?: (key: string) => TestCase[] | undefined,
  ) {}

  onTestModuleCollected(module: TestModule): void {
    for (const suite of module.children.suites()) {
      const facts = suite.meta().adcpAgent;
      if (facts) this.names.set(keyOfSuiteFile(module.moduleId), facts.name);
    }
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const run: CollectedRun = { agents: new Map(), junit: [], broken: new Map(), errors: unhandledErrors.map(errorText) };
    for (const module of modules) {
      const key = keyOfSuiteFile(module.moduleId);
      let found = false;
      for (const suite of module.children.suites()) {
        const facts = suite.meta().adcpAgent;
        if (!facts) continue;
        found = true;
        const outcomes = suite.meta().adcpOutcomes ?? this.outcomesOf?.(key) ?? [];
        const strict = suite.meta().adcpRun?.strict === true;
        const cases = new Map<string, TestCase>();
        for (const c of this.casesOf?.(key) ?? testCases(outcomes, suite.meta().adcpRun?.junitAll === true, strict))
          cases.set(`${suite.name} > ${c.name}`, c);
        const total = suite.meta().adcpRun?.agents;
        if (typeof total === 'number') run.runAgents = Math.max(run.runAgents ?? 0, total);
        run.agents.set(key, { ...facts, outcomes });
        run.junit.push({
          file: module.moduleId.slice(module.moduleId.lastIndexOf('/') + 1),
          name: facts.name,
          properties: agentProperties({ ...facts, outcomes }, strict),
          cases,
          durationMs: facts.durationMs,
        });
      }
      if (!found) run.broken.set(key, module.errors().map(errorText).join('; ') || `suite ${module.state()}`);
    }
    this.result = run;
  }
}

function errorText(e: SerializedError | { message?: string }): string {
  return truncate(stripUnsafe(e.message ?? 'unknown error'), 500);
}
