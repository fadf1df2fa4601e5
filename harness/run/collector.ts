// A vitest reporter that reads the run back out of vitest: agent facts from each agent's describe
// meta, outcomes from each test's meta. It sees a live run and a --merge-reports replay of blobs the
// same way, so sharded and single runs produce the same reports.
import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import type { AgentReport } from '../report/model.ts';
import type { JunitSuiteInfo } from '../report/junit.ts';
import { agentProperties } from '../report/junit.ts';
import { keyOfSuiteFile } from './workspace.ts';
import { stripUnsafe, truncate } from '../sanitize.ts';
import { testCases } from './suite-data.ts';
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
   * their meta (see META_OUTCOMES_KEY); a merge reads them from the blobs' meta.
   */
  constructor(private readonly outcomesOf?: (key: string) => ReportOutcome[] | undefined) {}

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
        const cases = new Map<string, ReportOutcome>();
        for (const { name, outcome } of testCases(outcomes, suite.meta().adcpRun?.junitAll === true))
          cases.set(`${suite.name} > ${name}`, outcome);
        const total = suite.meta().adcpRun?.agents;
        if (typeof total === 'number') run.runAgents = Math.max(run.runAgents ?? 0, total);
        run.agents.set(key, { ...facts, outcomes });
        run.junit.push({
          file: module.moduleId.slice(module.moduleId.lastIndexOf('/') + 1),
          name: facts.name,
          properties: agentProperties({ ...facts, outcomes }, suite.meta().adcpRun?.strict === true),
          cases,
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
