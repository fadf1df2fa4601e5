import { expect, test } from 'vitest';
import { renderSummaryMarkdown } from '../../harness/report/markdown.ts';
import { agent, outcome, sampleReport } from './fixtures.ts';

test('a table row per agent with its qualified verdict, then failures with evidence, warnings and baselined failures', () => {
  const md = renderSummaryMarkdown(sampleReport());
  expect(md).toContain(
    '**Result:** ❌ 2 agents: 1 nonconformant · 1 conformant — nonconformant to AdCP 3.0 per adcp-conformance 0.1.0 (1 baselined failure not counted)',
  );
  expect(md).toContain('**gate: FAIL — 1 nonconformant (exit 1)**');
  expect(md).toContain(
    '| alpha | ❌ nonconformant to AdCP 3.0 per adcp-conformance 0.1.0 (1 baselined failure not counted) | stdio 2025-11-25 | ref 1.0.0 | 3.0 | 1 | 1 | 1 | 1 | 1 | 1 |',
  );
  expect(md).toMatch(
    /## Failures \(1 outcome, 1 finding\)\n\n\| agent \| check \| calls \| detail \| evidence \| fix \| spec \|\n\|---\|---\|---\|---\|---\|---\|---\|\n\| alpha \| `envelope\.status` \| get_products \|/,
  );
  expect(md).toContain(
    'sent: get_products {"brief":"x"}<br>answered: structuredContent: {"status":"done"}<br>3 ms | send status: "completed" |',
  );
  expect(md).toContain('[AdCP · MCP response extraction](https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-response-extraction)');
  expect(md).toContain('## Warnings, SHOULD (1 outcome, 1 finding; fail only under --strict)');
  expect(md).toContain('## Expected failures (baseline) (1 outcome, 1 finding; not counted)');
  expect(md).toContain('baseline: known, ticket ADCP-12');
});

test('seller text cannot break the table or inject HTML', () => {
  const md = renderSummaryMarkdown(sampleReport());
  const row = md.split('\n').find((l) => l.startsWith('| beta'));
  expect(row).toBe(
    '| beta \\| &lt;b> | ✅ conformant to AdCP 3.0 per adcp-conformance 0.1.0 | http 2025-11-25 | — | 3.0 | 1 | 0 | 0 | 0 | 0 | 0 |',
  );
  expect(md).not.toContain('<b>');
});

test('under --strict warnings fail the run in their own section, which says so; a clean run says so', () => {
  const strict = renderSummaryMarkdown(sampleReport(true));
  expect(strict).toMatch(/## Warnings, SHOULD \(1 outcome, 1 finding; failing the run: --strict\)[^#]*error\.recovery/);
  expect(strict).not.toMatch(/## Failures[^#]*error\.recovery/);
  const clean = renderSummaryMarkdown({
    strict: false,
    cutShort: null,
    agents: [agent('a', [outcome({ check: 'envelope.flat', tool: 't', status: 'pass' })])],
  });
  expect(clean).toContain('**Result:** ✅ conformant');
  expect(clean).not.toContain('## Failures');
});

test('names incomplete agents', () => {
  const md = renderSummaryMarkdown({ strict: false, cutShort: null, agents: [agent('down', [], { reachable: false })] });
  expect(md).toContain('⚠️ incomplete');
  expect(md).toContain('- **down**: initialize did not answer');
});

test('an agent with an applicable MUST check untested is incomplete, listed under "Not verified"', () => {
  const md = renderSummaryMarkdown({
    strict: false,
    cutShort: null,
    agents: [
      agent('a', [
        outcome({ check: 'schema.adcp-response', tool: 'get_products', status: 'untested', message: 'no schemas for AdCP 3.1' }),
      ]),
    ],
  });
  expect(md).toContain('**Result:** ⚠️ incomplete');
  expect(md).toContain(
    '## Not verified (1 outcome, 1 finding; applicable checks that could not be judged, 1 leaving the verdict incomplete)',
  );
  expect(md).toContain('- **a**: 1 check(s) applied but could not be verified');
});

test('escapes only what would break the Markdown: tool names, versions and parentheses read as written', () => {
  const md = renderSummaryMarkdown({
    strict: false,
    cutShort: null,
    agents: [
      agent('shop_v1.2 (eu)', [
        outcome({
          check: 'envelope.status',
          tool: 'get_products',
          status: 'fail',
          message: 'found "done" (v0.1.0) #1 a*b [x](https://evil.example) $5 and $6 _em_ ~s~ <b> &amp; a|b `c`',
        }),
      ]),
    ],
  });
  expect(md).toContain('| shop_v1.2 (eu) | `envelope.status` | get_products | ');
  expect(md).toContain(
    'found "done" (v0.1.0) #1 a\\*b \\[x\\](https://evil.example) \\$5 and \\$6 \\_em_ \\~s\\~ &lt;b> &amp;amp; a\\|b \\`c\\`',
  );
});

test('links work in a GitHub step summary: absolute https only; a rule of this harness is named, not linked', () => {
  const md = renderSummaryMarkdown({
    strict: false,
    cutShort: null,
    agents: [
      agent('a', [
        outcome({
          check: 'transport.call',
          tool: 't',
          status: 'fail',
          message: 'x',
          spec: "the harness's rule",
          specUrl: 'docs/checks.md#transportcall',
        }),
        outcome({ check: 'envelope.status', tool: 't', status: 'fail', message: 'y' }),
      ]),
    ],
  });
  const targets = [...md.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]);
  expect(targets.length).toBeGreaterThan(0);
  for (const t of targets) expect(t).toMatch(/^https:\/\//);
  expect(md).toContain("| the harness's rule (adcp-conformance docs/checks.md, section transportcall) |");
});

test('a bug on seven calls is one row, the calls counted and listed', () => {
  const outcomes = Array.from({ length: 7 }, (_, i) =>
    outcome({ check: 'envelope.context-echo', tool: `tool_${i}`, status: 'fail', message: `at /context: expected ctx ${i}, found absent` }),
  );
  const md = renderSummaryMarkdown({ strict: false, cutShort: null, agents: [agent('a', outcomes)] });
  expect(md.match(/`envelope\.context-echo`/g)).toHaveLength(1);
  expect(md).toContain('## Failures (7 outcomes, 1 finding)');
  expect(md).toContain(
    '| a | `envelope.context-echo` | **7 of 7**: tool_0, tool_1, tool_2, tool_3, tool_4, tool_5, tool_6 | at /context: expected ctx 0, found absent |',
  );
});

test('an unreachable seller: the cause in the table, the detail and the fix under Incomplete agents', () => {
  const md = renderSummaryMarkdown({
    strict: false,
    cutShort: null,
    agents: [agent('gone', [], { reachable: false, down: { cause: 'dns', detail: 'host not found: x.invalid', fix: 'check the URL' } })],
  });
  expect(md).toMatch(/^\| gone \| ⚠️ down: host not found \| /m);
  expect(md).toContain('- **gone**: down: host not found: x.invalid — fix: check the URL');
  expect(md).toContain('**Result:** ⚠️ unreachable (host not found) — incomplete');
  expect(md).toContain('**gate: FAIL — 1 unreachable (exit 3)**');
});
