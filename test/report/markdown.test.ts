import { expect, test } from 'vitest';
import { renderSummaryMarkdown } from '../../harness/report/markdown.ts';
import { agent, outcome, sampleReport } from './fixtures.ts';

test('a table row per agent with its qualified verdict, then failures with evidence, warnings and baselined failures', () => {
  const md = renderSummaryMarkdown(sampleReport());
  expect(md).toContain('**Result:** ❌ nonconformant (per adcp-conformance 0\\.1\\.0)');
  expect(md).toContain(
    '| alpha | ❌ nonconformant to AdCP 3\\.0 per adcp-conformance 0\\.1\\.0 | stdio 2025-11-25 | ref 1\\.0\\.0 | 3\\.0 | 1 | 1 | 1 | 1 | 1 | 1 |',
  );
  expect(md).toMatch(
    /## Failures\n\n\| agent \| check \| tool \| detail \| evidence \| fix \| spec \|\n\|---\|---\|---\|---\|---\|---\|---\|\n\| alpha \| `envelope\.status` \| get\\_products \|/,
  );
  expect(md).toContain(
    'sent: get\\_products \\{"brief":"x"\\}<br>answered: structuredContent: \\{"status":"done"\\}<br>3 ms | send status: "completed" |',
  );
  expect(md).toContain('[AdCP · MCP response extraction](https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-response-extraction)');
  expect(md).toContain('## Warnings (SHOULD)');
  expect(md).toContain('## Expected failures (baseline)');
  expect(md).toContain('baseline: known, ticket ADCP\\-12'.replace(/\\-/g, '-'));
});

test('seller text cannot break the table or inject HTML', () => {
  const md = renderSummaryMarkdown(sampleReport());
  const row = md.split('\n').find((l) => l.startsWith('| beta'));
  expect(row).toBe(
    '| beta \\| &lt;b&gt; | ✅ conformant to AdCP 3\\.0 per adcp-conformance 0\\.1\\.0 | http 2025-11-25 | — | 3\\.0 | 1 | 0 | 0 | 0 | 0 | 0 |',
  );
  expect(md).not.toContain('<b>');
});

test('under --strict warnings are listed as failures; a clean run says so', () => {
  const strict = renderSummaryMarkdown(sampleReport(true));
  expect(strict).toMatch(/## Failures[^#]*error\.recovery/);
  expect(strict).not.toContain('## Warnings');
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
  expect(md).toContain('## Not verified');
  expect(md).toContain('- **a**: 1 check\\(s\\) applied but could not be verified');
});
