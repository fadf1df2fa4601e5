// A JUnit suite's `time` is its agent's real wall time (session and judging), not vitest's time for
// replaying the verdicts (a few ms) nor the sum of its cases; unknown (a replay) leaves vitest's value.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { agentProperties, decorateJunit, type JunitSuiteInfo } from '../../harness/report/junit.ts';
import { testCases } from '../../harness/report/test-cases.ts';
import { agent, outcome } from './fixtures.ts';

const XML = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="vitest tests" tests="2" failures="0" errors="0" time="0.02">
    <testsuite name="one.adcp.test.ts" timestamp="2026-01-01T00:00:00.000Z" hostname="h" tests="1" failures="0" errors="0" skipped="0" time="0.004">
        <testcase classname="one" name="one &gt; envelope.flat › get_products" time="0.001">
        </testcase>
    </testsuite>
    <testsuite name="two.adcp.test.ts" timestamp="2026-01-01T00:00:00.000Z" hostname="h" tests="1" failures="0" errors="0" skipped="0" time="0.003">
        <testcase classname="two" name="two &gt; envelope.flat › get_products" time="0.001">
        </testcase>
    </testsuite>
</testsuites>
`;

function suite(name: string, durationMs: number | null): JunitSuiteInfo {
  const passed = outcome({ check: 'envelope.flat', tool: 'get_products', status: 'pass', durationMs: 1 });
  const facts = { ...agent(name, [passed]), durationMs };
  return {
    file: `${name}.adcp.test.ts`,
    name,
    properties: agentProperties(facts, false),
    cases: new Map(testCases([passed], false, false).map((c) => [`${name} > ${c.name}`, c])),
    durationMs,
  };
}

describe('JUnit suite time', () => {
  const out = decorateJunit(XML, [suite('one', 12_345), suite('two', null)]);
  const suiteTag = (name: string) => new RegExp(`<testsuite name="${name}"[^>]*>`).exec(out)?.[0] ?? '';

  test("is the agent's real duration in seconds", () => {
    expect(suiteTag('one')).toContain(' time="12.345"');
    expect(suiteTag('one')).toContain('timestamp="2026-01-01T00:00:00.000Z"'); // `timestamp` is not `time`
    expect(suiteTag('one').match(/\stime=/g)).toHaveLength(1);
  });

  test("an unknown duration (a replay) keeps vitest's own value", () => {
    expect(suiteTag('two')).toContain(' time="0.003"');
  });

  const xsd = resolve(import.meta.dirname, '../../..', 'shared', 'junit', 'junit-10.xsd');
  const xmllint = (() => {
    try {
      execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  test.skipIf(!existsSync(xsd) || !xmllint)('still validates against junit-10.xsd (skipped: ../shared or xmllint absent)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'junit-time-'));
    try {
      writeFileSync(join(dir, 'junit.xml'), out);
      execFileSync('xmllint', ['--noout', '--schema', xsd, join(dir, 'junit.xml')], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
