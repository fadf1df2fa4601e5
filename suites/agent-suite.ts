// The conformance suite of one agent. The CLI has already probed and judged the agent; this file only
// turns each outcome into a vitest test case `<check id> › <tool>` inside a describe block named after
// the agent, so vitest's reporters (junit, blob for sharding) see one suite per agent. Every outcome
// travels in the describe block's meta (reporters read them there); not-applicable outcomes are not
// test cases unless --junit-all asks for them.
// fail → the test fails with the diagnosis · warn → passes, detail in system-out (fails under --strict)
// untested / not-applicable → skipped with the reason · a baselined fail/warn → passes, reported as expected.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, inject, test } from 'vitest';
import { DATA_DIR_KEY, testCases, type AgentSuiteData } from '../harness/run/suite-data.ts';
import { failureMessage } from '../harness/report/evidence-text.ts';
import type { ReportOutcome } from '../harness/report/model.ts';

export function defineAgentSuite(key: string): void {
  const data = JSON.parse(readFileSync(join(inject(DATA_DIR_KEY), `${key}.json`), 'utf8')) as AgentSuiteData;
  const junitAll = data.junitAll === true;
  describe(data.facts.name, { meta: { adcpAgent: data.facts, adcpOutcomes: data.outcomes, adcpRun: { strict: data.strict, junitAll, ...(data.runAgents === undefined ? {} : { agents: data.runAgents }) } } }, () => {
    for (const { name, outcome } of testCases(data.outcomes, junitAll)) test(name, (ctx) => verdict(outcome, data.strict, ctx.skip));
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
  throw new ConformanceFailure(failureMessage(o));
}
