// The conformance suite of one agent. The CLI has already probed and judged the agent; this file only
// turns each outcome into a vitest test case `<check id> › <tool>` inside a describe block named after
// the agent, so vitest's reporters (junit, blob for sharding) see one suite per agent.
// fail → the test fails with the detail · warn → passes, detail in system-out (fails under --strict)
// skip → skipped with the reason · a baselined fail/warn → passes, reported as an expected failure.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { caseName, DATA_DIR_KEY, type AgentSuiteData } from '../harness/run/suite-data.ts';
import type { ReportOutcome } from '../harness/report/model.ts';

export function defineAgentSuite(key: string): void {
  const data = JSON.parse(readFileSync(join(inject(DATA_DIR_KEY), `${key}.json`), 'utf8')) as AgentSuiteData;
  const seen = new Map<string, number>();
  describe(data.facts.name, { meta: { adcpAgent: data.facts } }, () => {
    for (const outcome of data.outcomes) {
      const base = caseName(outcome.check, outcome.tool);
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      // The same check and tool can be judged more than once (a config may probe one tool twice).
      const name = n === 1 ? base : `${base} (${n})`;
      test(name, { meta: { adcpOutcome: outcome } }, (ctx) => verdict(outcome, data.strict, ctx.skip));
    }
  });
}

function verdict(o: ReportOutcome, strict: boolean, skip: (note: string) => never): void {
  const detail = `${o.message || 'failed'} [${o.severity}; ${o.spec}]`;
  if (o.status === 'skip') skip(o.message || 'not applicable');
  if (o.status === 'pass') return;
  if (o.baseline !== undefined) {
    console.log(`expected failure (baseline: ${o.baseline}): ${o.status} ${detail}`);
    return;
  }
  if (o.status === 'warn' && !strict) {
    console.log(`warning (SHOULD, fails only under --strict): ${detail}`);
    return;
  }
  expect.fail(detail);
}
