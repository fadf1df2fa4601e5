import { expect, test } from 'vitest';
import { renderSummaryMarkdown } from '../../harness/report/markdown.ts';
import { agent, outcome, sampleReport } from './fixtures.ts';

test('a table row per agent, then failures, warnings and baselined failures', () => {
  const md = renderSummaryMarkdown(sampleReport());
  expect(md).toContain('**Result:** ❌ conformance failures');
  expect(md).toContain('| alpha | stdio 2025\\-11\\-25 | ref 1\\.0\\.0 | 3\\.0 | 1 | 1 | 1 | 1 | 1 |'.replace(/\\-/g, '-'));
  expect(md).toMatch(/## Failures\n\n\| agent \| check \| tool \| detail \| spec \|\n\|---\|---\|---\|---\|---\|\n\| alpha \| `envelope\.status` \| get\\_products \|/);
  expect(md).toContain('## Warnings (SHOULD)');
  expect(md).toContain('## Expected failures (baseline)');
  expect(md).toContain('baseline: known, ticket ADCP\\-12'.replace(/\\-/g, '-'));
});

test('seller text cannot break the table or inject HTML', () => {
  const md = renderSummaryMarkdown(sampleReport());
  const row = md.split('\n').find((l) => l.startsWith('| beta'));
  expect(row).toBe('| beta \\| &lt;b&gt; | http 2025-11-25 | — | 3\\.0 | 1 | 0 | 0 | 0 | 0 |');
  expect(md).not.toContain('<b>');
});

test('under --strict warnings are listed as failures; a clean run says so', () => {
  const strict = renderSummaryMarkdown(sampleReport(true));
  expect(strict).toMatch(/## Failures[^#]*error\.recovery/);
  expect(strict).not.toContain('## Warnings');
  const clean = renderSummaryMarkdown({ strict: false, cutShort: null, agents: [agent('a', [outcome({ check: 'envelope.flat', tool: 't', status: 'pass' })])] });
  expect(clean).toContain('✅ conformant');
  expect(clean).not.toContain('## Failures');
});

test('names incomplete agents', () => {
  const md = renderSummaryMarkdown({ strict: false, cutShort: null, agents: [agent('down', [], { reachable: false })] });
  expect(md).toContain('⚠️ incomplete');
  expect(md).toContain('- **down**: initialize did not answer');
});
