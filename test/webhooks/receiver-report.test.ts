// What the reports carry of the receiver: report.json lists the deliveries (bounded, redacted, seller text
// made safe) and validates against report.schema.json; the line says what arrived or why nothing could.
import { describe, expect, test } from 'vitest';
import { buildReportJson } from '../../harness/report/json.ts';
import type { RunReport } from '../../harness/report/model.ts';
import type { AgentCapture, WebhookDelivery } from '../../harness/record/exchange.ts';
import { sessionFacts } from '../../harness/run/judge/session-facts.ts';
import { DELIVERIES_SHOWN, webhookFacts } from '../../harness/webhooks/report-facts.ts';
import { reportSchemaErrors } from '../run/nightly.helpers.ts';
import { agent } from '../report/fixtures.ts';

const SECRET = 'tok_s3cret_value_123456';

const delivery = (over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  at: 12,
  method: 'POST',
  target: '/abc/3',
  call: 3,
  headers: [
    ['content-type', 'application/json'],
    ['signature', `sig1=:${SECRET}:`],
  ],
  body: '{"operation_id":"op","status":"completed"}',
  bodyEncoding: 'utf8',
  bodyBytes: 42,
  answered: 503,
  ...over,
});

function capture(webhooks: AgentCapture['webhooks']): AgentCapture {
  return {
    agent: { name: 'a', transport: 'stdio', sandbox: true } as AgentCapture['agent'],
    initialize: { ok: true, durationMs: 1 } as AgentCapture['initialize'],
    exchanges: [],
    ...(webhooks ? { webhooks } : {}),
  };
}

describe('the receiver in the reports', () => {
  test('no receiver: nothing said', () => {
    expect(webhookFacts(capture(undefined), [])).toBeUndefined();
  });

  test('deliveries listed (bounded), secrets redacted, control characters made safe; report.json validates', () => {
    const many = Array.from({ length: DELIVERIES_SHOWN + 5 }, (_, i) =>
      delivery({ at: i, ...(i === 1 ? { target: '/elsewhere\u001b[31m', body: 'x'.repeat(10_000), cut: 'bytes' as const } : {}) }),
    );
    delete many[2]!.call;
    const c = capture({ base: 'http://127.0.0.1:4000', kind: 'loopback', deliveries: many, omitted: 7, waitedMs: 2100 });
    const facts = sessionFacts(c, [], [SECRET], []);
    const w = facts.webhooks!;
    expect(w.deliveries).toHaveLength(DELIVERIES_SHOWN);
    expect(w.omitted).toBe(7 + 5);
    expect(w.text).toBe(`${DELIVERIES_SHOWN + 5 + 7} webhook deliveries received at http://127.0.0.1:4000 (12 not listed)`);
    expect(w.deliveries[0]).toMatchObject({ call: 3, answered: 503, bodyBytes: 42, body: '{"operation_id":"op","status":"completed"}' });
    expect(w.deliveries[1]!.body.length).toBeLessThanOrEqual(2048 + 64);
    expect(w.deliveries[1]!.target).not.toContain('\u001b');
    expect(w.deliveries[2]!.call).toBe(-1);
    expect(JSON.stringify(w)).not.toContain(SECRET);

    const report: RunReport = { agents: [agent('a', [], { webhooks: w })], strict: false, cutShort: null };
    const json = buildReportJson(report);
    expect(json.agents[0]!.webhooks).toEqual(w);
    expect(reportSchemaErrors(json)).toBeNull();
    // The schema holds the bound: a report listing more deliveries is invalid.
    const over = { ...json, agents: [{ ...json.agents[0], webhooks: { ...w, deliveries: [...w.deliveries, w.deliveries[0]] } }] };
    expect(reportSchemaErrors(over)).not.toBeNull();
  });

  test('nothing arrived on loopback: the line says a seller outside a sandbox refuses loopback callbacks, and what to do', () => {
    const w = webhookFacts(capture({ base: 'http://127.0.0.1:4000', kind: 'loopback', deliveries: [], omitted: 0, waitedMs: 0 }), [])!;
    expect(w.text).toMatch(
      /no webhook arrived at http:\/\/127\.0\.0\.1:4000; a seller outside a sandbox refuses loopback callback URLs.*--webhook-url/,
    );
    const note = webhookFacts(
      capture({
        base: '',
        kind: 'loopback',
        deliveries: [],
        omitted: 0,
        waitedMs: 0,
        note: 'the webhook receiver could not listen: EADDRINUSE',
      }),
      [],
    )!;
    expect(note.text).toBe('the webhook receiver could not listen: EADDRINUSE');
  });
});
