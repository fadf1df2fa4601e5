// Every report says, per agent: the account its calls named; the state rules a read-only run left out
// of reach, in ONE grouped line with how to enable them (never a line per rule); what the sandbox flows
// created (seller ids escaped like any seller text); and, with a finding that rests on several calls,
// each related call's request and answer.
import { describe, expect, test } from 'vitest';
import { renderHtmlReport } from '../../harness/report/html.ts';
import { buildReportJson } from '../../harness/report/json.ts';
import { agentProperties } from '../../harness/report/junit.ts';
import { renderSummaryMarkdown } from '../../harness/report/markdown.ts';
import type { RunReport } from '../../harness/report/model.ts';
import { ENABLE_STATE_RULES } from '../../harness/report/sandbox-notes.ts';
import { renderTerminalSummary } from '../../harness/report/terminal.ts';
import { caseFailureBody, testCases } from '../../harness/report/test-cases.ts';
import { reportSchemaErrors } from '../run/nightly.helpers.ts';
import { agent, outcome } from './fixtures.ts';

const RULES = ['media-buy.read-after-write', 'media-buy.revision', 'idempotency.concurrent'];
const HOSTILE_ID = 'mb_<script>alert(1)</script>|`x`';

const readOnly = agent(
  'read-only',
  RULES.map((check) => outcome({ check, tool: 'create_media_buy', status: 'not-applicable', message: 'the agent is not marked sandbox' })),
  {
    account: {
      source: 'harness',
      reference: '{"brand":{"domain":"conformance-test.example"},"operator":"conformance-test.example","sandbox":true}',
    },
    stateRulesOutOfReach: RULES,
  },
);

const doubleBooking = outcome({
  check: 'idempotency.concurrent',
  tool: 'create_media_buy (idempotency: concurrent-2)',
  status: 'fail',
  message: 'two identical requests at once booked two media buys',
  pointer: '/structuredContent/media_buy_id',
  expected: 'the same media_buy_id as the concurrent request',
  found: '"mb_2"',
  call: 9,
  related: [8],
  evidence: {
    request: 'create_media_buy {"idempotency_key":"k2"}',
    answer: 'structuredContent: {"media_buy_id":"mb_2"}',
    related: [
      {
        call: 8,
        tool: 'create_media_buy (idempotency: concurrent-1)',
        request: 'create_media_buy {"idempotency_key":"k1"}',
        answer: 'structuredContent: {"media_buy_id":"mb_1<img src=x>"}',
      },
    ],
  },
});

const sandbox = agent('sandbox', [doubleBooking], {
  index: 1,
  account: { source: 'config', reference: '{"account_id":"acc_123"}' },
  created: [
    { scenario: 'idempotency', kind: 'media_buy', id: HOSTILE_ID, call: 8, cleanup: 'cleaned-up' },
    { scenario: 'idempotency', kind: 'media_buy', id: 'mb_2', call: 9, cleanup: 'kept', why: 'the cancel was refused: ACTION_NOT_ALLOWED' },
  ],
  createdOmitted: 3,
});

const report: RunReport = { agents: [readOnly, sandbox], strict: false, cutShort: null };

describe('sandbox notes in every report', () => {
  test('terminal: the account, one grouped line of state rules and how to enable them, the created objects, the related call', () => {
    const text = renderTerminalSummary(report);
    const reach = text.split('\n').filter((l) => RULES.some((r) => l.includes(r)) && l.includes('out of reach'));
    expect(reach).toHaveLength(1);
    expect(reach[0]).toContain(
      `3 state rules out of reach (the agent is not marked sandbox, so they were judged not-applicable): ${RULES.join(', ')}`,
    );
    expect(text.split(ENABLE_STATE_RULES)).toHaveLength(2); // said once: for the one agent with rules out of reach
    expect(text).toContain(
      "account: none configured; read-only calls name none, sandbox flows the harness's own natural-key sandbox reference",
    );
    expect(text).toContain('account: {"account_id":"acc_123"} (config `account`)');
    expect(text).toContain("created in the seller's sandbox: 5 objects (1 kept), 3 not listed");
    expect(text).toContain('media_buy mb_2 (idempotency, call 9): kept: the cancel was refused: ACTION_NOT_ALLOWED');
    expect(text).toContain('with call 8: create_media_buy (idempotency: concurrent-1)');
    expect(text).toContain('  sent:     create_media_buy {"idempotency_key":"k1"}');
  });

  test('summary.md: a Sandbox and account section; seller ids escaped; the related call in the evidence cell', () => {
    const md = renderSummaryMarkdown(report);
    expect(md).toContain('## Sandbox and account');
    expect(md.match(/state rules out of reach/g)).toHaveLength(1);
    expect(md).not.toContain('<script>');
    expect(md).toContain('mb_&lt;script>alert(1)&lt;/script>\\|\\`x\\`');
    expect(md).toContain('**with call 8** create_media_buy (idempotency: concurrent-1): sent: create_media_buy');
  });

  test('report.html: the notes on each card, nothing a seller sent is live markup', () => {
    const html = renderHtmlReport(report);
    expect(html).toContain('data-state-rules-out-of-reach="3"');
    expect(html).toContain('data-account="config"');
    expect(html).toContain('data-created="5"');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x>');
    expect(html).toContain('with call 8');
    expect(html).toContain('&lt;img src=x&gt;');
  });

  test('report.json: the facts as fields, valid against the schema', () => {
    const json = buildReportJson(report);
    expect(reportSchemaErrors(json)).toBeNull();
    expect(json.agents[0]!.stateRulesOutOfReach).toEqual({
      rules: RULES,
      text: expect.stringContaining('3 state rules'),
      enable: ENABLE_STATE_RULES,
    });
    expect(json.agents[0]!.account).toMatchObject({ source: 'harness' });
    expect(json.agents[1]!.stateRulesOutOfReach).toBeUndefined();
    expect(json.agents[1]!.created).toMatchObject({
      omitted: 3,
      objects: [
        { id: HOSTILE_ID, cleanup: 'cleaned-up' },
        { id: 'mb_2', why: expect.any(String) },
      ],
    });
    expect(json.agents[1]!.outcomes[0]!.evidence?.related).toEqual([
      expect.objectContaining({ call: 8, answer: expect.stringContaining('mb_1') }),
    ]);
    // The schema holds the new fields to their shape.
    const bad = { ...json, agents: [{ ...json.agents[0], stateRulesOutOfReach: { rules: [], text: 'x', enable: 'y' } }, json.agents[1]] };
    expect(reportSchemaErrors(bad)).not.toBeNull();
  });

  test('JUnit: the notes as suite properties; the related call in the failure body', () => {
    expect(agentProperties(readOnly, false)).toContainEqual(['stateRules.outOfReach', expect.stringContaining(RULES.join(', '))]);
    expect(agentProperties(readOnly, false)).toContainEqual(['stateRules.enable', ENABLE_STATE_RULES]);
    expect(agentProperties(sandbox, false)).toContainEqual(['account', expect.stringContaining('acc_123')]);
    expect(agentProperties(sandbox, false)).toContainEqual(['created.1', expect.stringContaining('mb_2')]);
    const [failing] = testCases([doubleBooking], false, false);
    const body = caseFailureBody(failing!);
    expect(body).toContain('with call 8: create_media_buy (idempotency: concurrent-1)');
    expect(body).toContain('answered: structuredContent: {"media_buy_id":"mb_1<img src=x>"}');
  });

  test('reports from before these facts render as they did (no line at all)', () => {
    const old: RunReport = { agents: [agent('old', [])], strict: false, cutShort: null };
    expect(renderTerminalSummary(old)).not.toMatch(/account:|out of reach|created in/);
    expect(renderSummaryMarkdown(old)).not.toContain('Sandbox and account');
    expect(reportSchemaErrors(buildReportJson(old))).toBeNull();
  });
});
