// The conformance suite of one agent. The CLI has already probed and judged the agent; this file only
// turns each outcome into a vitest test case `<check id> › <tool>` inside a describe block named after
// the agent, so vitest's reporters (junit, blob for sharding) see one suite per agent. For a blob, every
// outcome travels once, in the describe block's meta (reporters read them there), never in a test case's;
// not-applicable outcomes are not test cases unless --junit-all asks for them.
// fail → the test fails with the diagnosis · warn → passes, detail in system-out (fails under --strict)
// untested / not-applicable → skipped with the reason · a baselined fail/warn → passes, reported as expected.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, inject, test, TestRunner } from 'vitest';
import { ABANDONED_FILE, DATA_DIR_KEY, META_OUTCOMES_KEY, testCases, type AgentSuiteData } from '../harness/run/suite-data.ts';
import { failureMessage } from '../harness/report/evidence-text.ts';
import type { ReportOutcome } from '../harness/report/model.ts';

/** How often a suite looks for its agent's data while the agent is still being probed or judged. */
const DATA_POLL_MS = 10;

/**
 * The suite of one agent. vitest starts while the agents are still being probed (its start-up and the
 * other agents' suites then overlap the probing): a suite waits here until its agent's data is written
 * (atomically, by the CLI). The CLI writes every agent's data, or stops vitest.
 */
export async function defineAgentSuite(key: string): Promise<void> {
  const dir = inject(DATA_DIR_KEY);
  const file = join(dir, `${key}.json`);
  while (!existsSync(file)) {
    if (existsSync(join(dir, ABANDONED_FILE))) return; // the run stopped without this agent: nothing to report
    await new Promise((r) => setTimeout(r, DATA_POLL_MS));
  }
  const data = JSON.parse(readFileSync(file, 'utf8')) as AgentSuiteData;
  const junitAll = data.junitAll === true;
  describe(data.facts.name, () => {
    for (const { name, outcome } of testCases(data.outcomes, junitAll)) test(name, (ctx) => verdict(outcome, data.strict, ctx.skip));
    // The meta goes on the describe block only once its test cases exist: vitest copies a describe's meta
    // into every test case defined after it, and every outcome would then travel (structured-cloned) with
    // every test case's result.
    const suite = TestRunner.getCurrentSuite().suite;
    if (!suite) throw new Error(`agent suite ${key}: vitest gave the describe block no task`);
    Object.assign(suite.meta, {
      adcpAgent: data.facts,
      adcpRun: { strict: data.strict, junitAll, ...(data.runAgents === undefined ? {} : { agents: data.runAgents }) },
      // Only for a blob: a live run's reporters have the outcomes already (META_OUTCOMES_KEY).
      ...(inject(META_OUTCOMES_KEY) ? { adcpOutcomes: data.outcomes } : {}),
    });
  });
}

/** A failure our reporters rewrite (message, evidence body): no stack frame of ours is worth showing. */
class ConformanceFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformanceFailure';
    this.stack = `${this.name}: ${message}`;
  }
}

function verdict(o: ReportOutcome, strict: boolean, skip: (note: string) => never): void {
  if (o.status === 'not-applicable' || o.status === 'untested') skip(`${o.status}: ${o.message || 'no reason given'}`);
  if (o.status === 'pass') return;
  if (o.baseline !== undefined) {
    console.log(`expected failure (baseline: ${o.baseline}): ${o.status} ${failureMessage(o)}`);
    return;
  }
  if (o.status === 'warn' && !strict) {
    console.log(`warning (SHOULD, fails only under --strict): ${failureMessage(o)}`);
    return;
  }
  if (o.advisory === true) {
    console.log(`advisory (official storyboard; fails only under --strict-storyboards): ${o.status} ${failureMessage(o)}`);
    return;
  }
  throw new ConformanceFailure(failureMessage(o));
}
