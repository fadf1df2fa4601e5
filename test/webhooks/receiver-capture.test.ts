// The receiver in a capture, live against the reference seller over stdio: a sandbox agent's push-taking
// calls name it (per-call URL, unique operation_id, no authentication), the idempotency replay carries the
// original's config unchanged (so the clean seller still passes the idempotency checks), and the capture
// keeps what it saw. A read-only agent gets no receiver and no push_notification_config.
import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { PUSH_NOTIFICATION_TASKS } from '../../harness/adcp-tasks.ts';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import type { StdioAgentConfig } from '../../harness/config/types.ts';
import { own } from '../../harness/json.ts';
import type { Exchange } from '../../harness/record/exchange.ts';
import { ENVELOPE_SCENARIO } from '../../harness/capture/envelope-scenario.ts';
import { stdioSellerCommand } from '../../sellers/launch.ts';
import { WebhookReceiver } from '../../harness/webhooks/receiver.ts';

function seller(sandbox: boolean): StdioAgentConfig {
  const { command, args } = stdioSellerCommand();
  return {
    name: sandbox ? 'sandbox-seller' : 'read-only-seller',
    transport: 'stdio',
    command,
    args,
    env: {},
    timeouts: { connectMs: 15_000, callMs: 10_000, agentMs: 90_000 },
    production: false,
    sandbox,
    maxBytes: 1_114_112,
    secrets: [],
  };
}

const pushOf = (x: Exchange) => own(x.request.arguments, 'push_notification_config') as Record<string, unknown> | undefined;
/** The envelope scenario sends a push_notification_config of its own on every tool (kept as sent). */
const ownConfig = (x: Exchange) => x.scenario?.name === ENVELOPE_SCENARIO.protocolFields;
const step = (xs: readonly Exchange[], name: string) => xs.find((x) => x.scenario?.name === 'idempotency' && x.scenario.step === name)!;

describe('the webhook receiver in a capture', () => {
  test('a sandbox agent: every push-taking call names the receiver; a replay carries the original config', async () => {
    const capture = await captureAgent(seller(true), { webhooks: { lateMs: 200 } });
    const hooks = capture.webhooks!;
    expect(hooks).toMatchObject({ kind: 'loopback', base: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    expect(capture.exchanges.some(ownConfig)).toBe(true);
    const taking = capture.exchanges.filter((x) => PUSH_NOTIFICATION_TASKS.has(x.tool) && !ownConfig(x));
    expect(taking.length).toBeGreaterThan(5);
    for (const x of taking) {
      const push = pushOf(x)!;
      expect(push, x.tool).toEqual({
        url: expect.stringMatching(new RegExp(`^${hooks.base}/[0-9a-f]{24}/\\d+$`)),
        operation_id: expect.any(String),
      });
    }
    for (const x of capture.exchanges.filter((x) => !PUSH_NOTIFICATION_TASKS.has(x.tool) && !ownConfig(x)))
      expect(pushOf(x), x.tool).toBeUndefined();

    const original = step(capture.exchanges, 'original');
    expect(pushOf(step(capture.exchanges, 'replay'))).toEqual(pushOf(original));
    expect(pushOf(step(capture.exchanges, 'conflict'))).not.toEqual(pushOf(original));
    expect(pushOf(step(capture.exchanges, 'concurrent-second'))).toEqual(pushOf(step(capture.exchanges, 'concurrent-first')));
    // Each config was made for the call its URL names (a later call carrying it copied that call's arguments,
    // as a replay or a scenario's variation does), and that call's operation_id is its own.
    capture.exchanges.forEach((x, i) => {
      if (!taking.includes(x)) return;
      const made = Number(String(pushOf(x)!['url']).split('/').pop());
      expect(made).toBeLessThanOrEqual(i);
      expect(pushOf(capture.exchanges[made]!)).toEqual(pushOf(x));
    });
    const ids = taking
      .filter((x) => String(pushOf(x)!['url']).endsWith(`/${capture.exchanges.indexOf(x)}`))
      .map((x) => pushOf(x)!['operation_id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(5);

    const outcomes = judgeAgent(capture, { agent: capture.agent });
    const idem = outcomes.filter((o) => o.check.startsWith('idempotency.'));
    expect(idem.length).toBeGreaterThan(0);
    expect(idem.filter((o) => o.status === 'fail')).toEqual([]);
  }, 120_000);

  test('a read-only agent: no receiver, no push_notification_config', async () => {
    const capture = await captureAgent(seller(false));
    expect(capture.webhooks).toBeUndefined();
    expect(capture.exchanges.length).toBeGreaterThan(0);
    for (const x of capture.exchanges.filter((x) => !ownConfig(x))) expect(pushOf(x), x.tool).toBeUndefined();
  }, 60_000);

  test('a shared receiver behind a public base (--webhook-url): the calls name the base, deliveries through it are recorded', async () => {
    const port = await freePort();
    // The "forwarder" is the receiver itself under a path prefix: routing reads the last two segments.
    const receiver = new WebhookReceiver({ publicBase: `http://127.0.0.1:${port}/fwd`, port });
    await receiver.start();
    try {
      const capture = await captureAgent(seller(true), { webhooks: { receiver, lateMs: 300 } });
      const hooks = capture.webhooks!;
      expect(hooks).toMatchObject({ kind: 'public', base: `http://127.0.0.1:${port}/fwd` });
      const book = capture.exchanges.find((x) => x.tool === 'create_media_buy' && !ownConfig(x))!;
      expect(String(pushOf(book)!['url'])).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/fwd/[0-9a-f]{24}/\\d+$`));
      // The reference seller books guaranteed products asynchronously and delivers to the URL it was given.
      expect(hooks.deliveries.length).toBeGreaterThan(0);
      expect(hooks.deliveries.every((d) => d.target.startsWith('/fwd/') && d.call !== undefined)).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 120_000);
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}
