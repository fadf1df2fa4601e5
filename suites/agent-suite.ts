// The conformance suite of one agent. The CLI has already probed and judged the agent; this file only
// turns its outcomes into vitest test cases inside a describe block named after the agent, so vitest's
// reporters (junit, blob for sharding) see one suite per agent: ONE test case per (check, tool) pair,
// `<check id> › <tool>`, aggregating every outcome of that pair (harness/report/test-cases.ts says why and
// how). For a blob, every outcome travels once, in the describe block's meta (reporters read them there),
// never in a test case's; a pair whose outcomes are all not-applicable is not a test case unless
// --junit-all asks for it.
// a failing call → the case fails with the failing calls' diagnoses · else an untested call → skipped with
// the reason · else passes; warnings (failing only under --strict), expected (baselined) and advisory
// failures are written to system-out.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, inject, test, TestRunner } from 'vitest';
import { ABANDONED_FILE, DATA_DIR_KEY, type CaseVerdict, type SuiteFile } from '../harness/run/vitest/suite-data.ts';

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
  // The test cases come judged (harness/report/test-cases.ts, in the CLI): each one only replays its verdict.
  const data = JSON.parse(readFileSync(file, 'utf8')) as SuiteFile;
  const junitAll = data.junitAll;
  describe(data.facts.name, () => {
    for (const c of data.cases) test(c.name, (ctx) => verdict(c, ctx.skip));
    // The meta goes on the describe block only once its test cases exist: vitest copies a describe's meta
    // into every test case defined after it, and every outcome would then travel (structured-cloned) with
    // every test case's result.
    const suite = TestRunner.getCurrentSuite().suite;
    if (!suite) throw new Error(`agent suite ${key}: vitest gave the describe block no task`);
    Object.assign(suite.meta, {
      adcpAgent: data.facts,
      adcpRun: { strict: data.strict, junitAll, ...(data.runAgents === undefined ? {} : { agents: data.runAgents }) },
      // Only for a blob: a live run's reporters have the outcomes already (see SuiteFile).
      ...(data.outcomes ? { adcpOutcomes: data.outcomes } : {}),
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

function verdict(c: CaseVerdict, skip: (note: string) => never): void {
  // One write for every note: each console.log is a message from this worker to vitest's main thread.
  if (c.notes?.length) console.log(c.notes.join('\n'));
  if (c.status === 'skip') skip(c.message ?? 'skipped');
  if (c.status === 'fail') throw new ConformanceFailure(c.message ?? 'failed');
}
