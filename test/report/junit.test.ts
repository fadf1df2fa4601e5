import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { agentProperties, decorateJunit } from '../../harness/report/junit.ts';
import { testCases } from '../../harness/report/test-cases.ts';
import { agent, outcome } from './fixtures.ts';

// The shape vitest 4's junit reporter writes (one <testsuite> per file, `describe > test` names).
const VITEST_XML = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="vitest tests" tests="3" failures="1" errors="0" time="0.01">
    <testsuite name="a-b.adcp.test.ts" timestamp="2026-01-01T00:00:00.000Z" hostname="h" tests="3" failures="1" errors="0" skipped="1" time="0.01">
        <testcase classname="a &lt;b&gt;" name="a &lt;b&gt; &gt; envelope.flat › get_products" time="0.001">
        </testcase>
        <testcase classname="a &lt;b&gt;" name="a &lt;b&gt; &gt; capabilities.tool › get_adcp_capabilities" time="0">
            <skipped/>
        </testcase>
        <testcase classname="a &lt;b&gt;" name="a &lt;b&gt; &gt; envelope.status › get_products" time="0.003">
            <failure message="at /x: expected y, found &quot;z&quot;" type="AssertionError">
AssertionError: at /x
            </failure>
        </testcase>
    </testsuite>
    <testsuite name="other.adcp.test.ts" tests="0" failures="0" errors="0" time="0">
    </testsuite>
</testsuites>
`;

const failing = outcome({
  check: 'envelope.status',
  tool: 'get_products',
  status: 'fail',
  message: 'at /x: expected y; found "z"',
  pointer: '/x',
  expected: 'y',
  found: '"z"',
  fix: 'send a status',
  durationMs: 1250,
  evidence: {
    request: 'get_products {}',
    answer: "Cannot read properties of undefined (reading 'map')",
    diagnosis: 'Your tool threw `Cannot read properties of undefined`',
  },
});
const untested = outcome({
  check: 'capabilities.tool',
  tool: 'get_adcp_capabilities',
  status: 'untested',
  message: 'tool "absent" <here>',
});
const passed = outcome({ check: 'envelope.flat', tool: 'get_products', status: 'pass', durationMs: 7 });
const facts = agent('a <b>', [passed, untested, failing], { server: { name: 'srv "x"', version: '1&2' } });
const info = {
  file: 'a-b.adcp.test.ts',
  name: 'a <b>',
  properties: agentProperties(facts, false),
  cases: new Map(testCases([passed, untested, failing], false, false).map((c) => [`a <b> > ${c.name}`, c])),
};

describe('decorateJunit', () => {
  const out = decorateJunit(VITEST_XML, [info]);

  test('names the suite after the agent and adds its facts as properties', () => {
    expect(out).toContain('<testsuite name="a &lt;b&gt;" timestamp=');
    expect(out).toMatch(/<testsuite name="a &lt;b&gt;"[^>]*>\n<properties><property name="agent" value="a &lt;b&gt;"\/>/);
    expect(out).toContain('<property name="server.name" value="srv &quot;x&quot;"/>');
    expect(out).toContain('<property name="server.version" value="1&amp;2"/>');
    expect(out).toContain('<property name="layers.legacy_wrapper" value="1"/>');
    expect(out).toContain('<property name="verdict" value="nonconformant"/>');
    expect(out).toContain('<property name="count.untested" value="1"/>');
    expect(out).toContain('<testsuites name="adcp-conformance"');
  });

  test('gives <skipped> its reason, the failure its diagnosis and evidence, and leaves everything else alone', () => {
    expect(out).toContain('<skipped message="untested: tool &quot;absent&quot; &lt;here&gt;"/>');
    expect(out.match(/<skipped/g)).toHaveLength(1);
    expect(out).toMatch(
      /<failure message="Your tool threw `Cannot read properties of undefined` \[MUST; AdCP · MCP response extraction\]" type="envelope.status">/,
    );
    expect(out).toContain('answered: Cannot read properties of undefined (reading &apos;map&apos;)');
    expect(out).toContain('fix:      send a status');
    expect(out).not.toContain('AssertionError');
    expect(out).toContain('<testsuite name="other.adcp.test.ts"');
  });

  test("testcase time is the judged call's duration", () => {
    expect(out).toContain('name="a &lt;b&gt; &gt; envelope.status › get_products" time="1.250"');
    expect(out).toContain('name="a &lt;b&gt; &gt; envelope.flat › get_products" time="0.007"');
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
  test.skipIf(!existsSync(xsd) || !xmllint)('the result validates against junit-10.xsd (skipped: ../shared or xmllint absent)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'junit-'));
    try {
      writeFileSync(join(dir, 'junit.xml'), out);
      execFileSync('xmllint', ['--noout', '--schema', xsd, join(dir, 'junit.xml')], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
