// A finding that rests on several calls shows each one's request and answer (bounded, redacted), and
// the session facts every report prints: the account the calls named, the state rules a read-only run
// left out of reach (checks declared `requires: 'sandbox'` only), and what the sandbox flows created.
import { describe, expect, test } from 'vitest';
import { catalog } from '../../harness/checks/catalog.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import type { Exchange } from '../../harness/record/exchange.ts';
import type { ReportOutcome } from '../../harness/report/model.ts';
import { attachEvidence, relatedEvidence } from '../../harness/run/judge/evidence.ts';
import { sessionFacts, stateRuleIds } from '../../harness/run/judge/session-facts.ts';
import { capture, errorResult, result, success } from '../checks/build.ts';

const SECRET = 'sekrit-token-123';

function booking(id: string, extra: Partial<Exchange> = {}): Exchange {
  return result(success({ status: 'completed', media_buy_id: id, packages: [] }), {
    tool: 'create_media_buy',
    request: { name: 'create_media_buy', arguments: { idempotency_key: 'k'.repeat(20), note: SECRET } },
    scenario: { name: 'idempotency', step: 'concurrent' },
    ...extra,
  });
}

const finding = (over: Partial<ReportOutcome>): ReportOutcome => ({
  check: 'idempotency.concurrent',
  tool: 'create_media_buy (idempotency: concurrent)',
  status: 'fail',
  severity: 'MUST',
  message: 'two bookings',
  spec: 's',
  specUrl: 'https://adcontextprotocol.org/docs/building/by-layer/L1/security',
  ...over,
});

describe('related calls as evidence', () => {
  const exchanges = [
    booking('mb_1'),
    booking('mb_2'),
    result(success({ status: 'completed', media_buys: [] }), { tool: 'get_media_buys' }),
  ];
  const cap = capture({ exchanges });

  test('a fail with related calls shows each one’s request and answer after its own call’s evidence', () => {
    const o = finding({ call: 1, related: [0, 2] });
    attachEvidence([o], cap, [SECRET]);
    expect(o.evidence?.request).toContain('create_media_buy');
    expect(o.evidence?.related).toEqual([
      expect.objectContaining({ call: 0, tool: 'create_media_buy (idempotency: concurrent)' }),
      expect.objectContaining({ call: 2, tool: 'get_media_buys' }),
    ]);
    expect(o.evidence?.related?.[0]?.answer).toContain('mb_1');
    // Redacted like the finding's own call.
    expect(o.evidence?.related?.[0]?.request).toContain('[REDACTED]');
    expect(JSON.stringify(o.evidence)).not.toContain(SECRET);
  });

  test('a session finding without a call of its own still shows its related calls', () => {
    const o = finding({ related: [0, 1] });
    attachEvidence([o], cap, []);
    expect(o.evidence?.related?.map((r) => r.call)).toEqual([0, 1]);
    expect(o.evidence?.request).toBeUndefined();
  });

  test('bounded: its own call, duplicates, unknown indexes and non-findings are left out; at most four calls', () => {
    expect(relatedEvidence([1, 1, 99, -1, 0.5, 0], 1, exchanges, []).map((r) => r.call)).toEqual([0]);
    const many = Array.from({ length: 8 }, (_, i) => booking(`mb_${i}`));
    expect(relatedEvidence([0, 1, 2, 3, 4, 5, 6, 7], undefined, many, [])).toHaveLength(4);
    const long = booking('x'.repeat(5000));
    expect(relatedEvidence([0], undefined, [long], [])[0]!.answer).toMatch(/^.{500}… \(\+\d+ chars\)$/su);
    const pass = finding({ status: 'pass', call: 1, related: [0] });
    attachEvidence([pass], cap, []);
    expect(pass.evidence).toBeUndefined();
  });

  test('seller text in a related answer is made inert (control and bidi characters stripped)', () => {
    const hostile = result(errorResult({ code: 'X\u001b[31mRED\u202e', message: 'm', recovery: 'terminal' }), { tool: 'get_media_buys' });
    const [r] = relatedEvidence([0], undefined, [hostile], []);
    expect(r!.answer).not.toContain('\u001b');
    expect(r!.answer).not.toContain('\u202e');
  });
});

describe('session facts', () => {
  const stateRule = (check: string, status: Outcome['status']): Outcome => ({
    check,
    tool: 'create_media_buy',
    status,
    severity: 'MUST',
    message: '',
    spec: '',
    specUrl: '',
  });

  test('the state rules are exactly the checks declared requires: sandbox', () => {
    expect(stateRuleIds(catalog)).toEqual(catalog.filter((c) => c.requires === 'sandbox').map((c) => c.id));
  });

  test('a read-only agent: every state rule judged not-applicable is listed once, in catalog order; nothing else', () => {
    const outcomes = [
      stateRule('media-buy.revision', 'not-applicable'),
      stateRule('media-buy.revision', 'not-applicable'),
      stateRule('idempotency.concurrent', 'not-applicable'),
      stateRule('envelope.status', 'not-applicable'), // not a state rule
      stateRule('creative.read-after-write', 'pass'), // judged: not out of reach
    ];
    const rules = ['idempotency.concurrent', 'media-buy.revision', 'creative.read-after-write', 'media-buy.flight-dates'];
    const facts = sessionFacts(
      capture({ agent: { name: 'ro', transport: 'stdio', production: false, sandbox: false } }),
      outcomes,
      [],
      rules,
    );
    expect(facts.stateRulesOutOfReach).toEqual(['idempotency.concurrent', 'media-buy.revision']);
    // A sandbox agent has none out of reach: a rule not-applicable there is so for another reason.
    const sandbox = sessionFacts(capture(), outcomes, [], rules);
    expect(sandbox.stateRulesOutOfReach).toBeUndefined();
  });

  test('the account: the configured one (redacted), else the harness’s own natural-key sandbox reference', () => {
    const own = sessionFacts(capture(), [], [], []);
    expect(own.account).toEqual({ source: 'harness', reference: expect.stringContaining('"sandbox":true') });
    const configured = capture({
      agent: { name: 'c', transport: 'stdio', production: false, sandbox: true, account: { account_id: `acc_${SECRET}` } },
    });
    expect(sessionFacts(configured, [], [SECRET], []).account).toEqual({ source: 'config', reference: '{"account_id":"acc_[REDACTED]"}' });
  });

  test('the calls the seller refused for their account are counted by code, with the tools', () => {
    const refusal = (tool: string, code: string) =>
      result(errorResult({ code, message: 'm', recovery: 'correctable' }), { tool, request: { name: tool, arguments: {} } });
    const cap = capture({
      exchanges: [
        refusal('get_products', 'ACCOUNT_REQUIRED'),
        refusal('list_creatives', 'ACCOUNT_REQUIRED'),
        refusal('get_products', 'ACCOUNT_REQUIRED'),
        refusal('create_media_buy', 'ACCOUNT_NOT_FOUND'),
        refusal('get_products', 'INVALID_REQUEST'),
      ],
    });
    expect(sessionFacts(cap, [], [], []).account?.refusals).toEqual([
      { code: 'ACCOUNT_REQUIRED', calls: 3, tools: ['get_products', 'list_creatives'] },
      { code: 'ACCOUNT_NOT_FOUND', calls: 1, tools: ['create_media_buy'] },
    ]);
    expect(sessionFacts(capture(), [], [], []).account?.refusals).toBeUndefined();
  });

  test('what the flows created: listed with its scenario, call and fate; seller ids sanitized; bounded to 50', () => {
    const created = Array.from({ length: 53 }, (_, i) => ({
      kind: 'media_buy' as const,
      id: i === 0 ? 'mb_\u001b[2J<script>|x' : `mb_${i}`,
      call: i,
      cleanup: i % 2 ? ('kept' as const) : ('cleaned-up' as const),
      ...(i % 2 ? { why: 'the seller offers no cancel' } : {}),
    }));
    const facts = sessionFacts(capture({ scenarios: [{ name: 'media-buy-lifecycle', status: 'ran', created }] }), [], [], []);
    expect(facts.created).toHaveLength(50);
    expect(facts.createdOmitted).toBe(3);
    expect(facts.created?.[0]).toEqual({
      scenario: 'media-buy-lifecycle',
      kind: 'media_buy',
      id: 'mb_[2J<script>|x',
      call: 0,
      cleanup: 'cleaned-up',
    });
    expect(facts.created?.[1]).toMatchObject({ cleanup: 'kept', why: 'the seller offers no cancel' });
    expect(sessionFacts(capture(), [], [], []).created).toBeUndefined();
  });
});
