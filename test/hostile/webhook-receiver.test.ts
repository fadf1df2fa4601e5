// Sellers that misuse the harness's webhook receiver (test/hostile/servers/webhook-sender.mjs, a stdio
// sandbox seller delivering on its first sync_creatives call): a flood, a 100 MiB body, a slow body, a wrong
// path, a body that is not JSON. Each is bounded (count, bytes, time; memory), recorded, and the session goes
// on to its end. And a seller delivering a payload is recorded with its exact bytes, 503 first, 204 after.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import type { StdioAgentConfig } from '../../harness/config/types.ts';
import { own } from '../../harness/json.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { DEFAULT_BOUNDS } from '../../harness/webhooks/receiver.ts';

const SELLER = fileURLToPath(new URL('./servers/webhook-sender.mjs', import.meta.url));
const AGENT_MS = 30_000;
const MIB = 1024 * 1024;

const agent = (behaviour: string): StdioAgentConfig => ({
  name: `webhook-${behaviour}`,
  transport: 'stdio',
  command: process.execPath,
  args: [SELLER, behaviour],
  env: {},
  timeouts: { connectMs: 10_000, callMs: 5_000, agentMs: AGENT_MS },
  production: false,
  sandbox: true,
  maxBytes: DEFAULT_MAX_BYTES,
  secrets: [],
});

/** The capture, with its wall time and how much the harness's RSS grew meanwhile. */
async function run(behaviour: string): Promise<{ capture: AgentCapture; ms: number; grewMiB: number }> {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const capture = await captureAgent(agent(behaviour), { webhooks: { lateMs: 500 } });
  return { capture, ms: performance.now() - t0, grewMiB: (process.memoryUsage().rss - rss0) / MIB };
}

/** The session went on to its end: no abort, the delivering call answered, judging works. */
function wentOn(capture: AgentCapture): void {
  expect(capture.aborted).toBeUndefined();
  const sync = capture.exchanges.find((x) => x.tool === 'sync_creatives')!;
  expect(sync.outcome.kind).toBe('result');
  expect(judgeAgent(capture, { agent: capture.agent }).length).toBeGreaterThan(0);
}

const pushOf = (c: AgentCapture) =>
  own(c.exchanges.find((x) => x.tool === 'sync_creatives')!.request.arguments, 'push_notification_config') as {
    url: string;
    operation_id: string;
  };

describe('the webhook receiver against hostile senders', () => {
  test('a delivery is recorded with its exact bytes and headers, answered 503, and its retry 204', async () => {
    const { capture } = await run('deliver');
    wentOn(capture);
    const { url, operation_id: op } = pushOf(capture);
    const bytes = `{"operation_id":${JSON.stringify(op)},  "status":"completed","task_type":"sync_creatives","note":"café ✓"}`;
    const hooks = capture.webhooks!;
    expect(hooks.deliveries.map((d) => d.answered)).toEqual([503, 204]);
    for (const d of hooks.deliveries) {
      expect(d).toMatchObject({
        method: 'POST',
        target: new URL(url).pathname,
        body: bytes,
        bodyEncoding: 'utf8',
        bodyBytes: Buffer.byteLength(bytes),
      });
      expect(d.call).toBe(capture.exchanges.findIndex((x) => x.tool === 'sync_creatives'));
      expect(d.headers).toContainEqual(['content-type', 'application/json']);
    }
    expect(capture.stdio?.stderrTail).toMatch(/first 503[\s\S]*retry 204/);
  }, 60_000);

  test('a flood of 5000 deliveries: the first kept, the rest counted; bounded in time and memory', async () => {
    const { capture, ms, grewMiB } = await run('flood');
    wentOn(capture);
    const hooks = capture.webhooks!;
    expect(hooks.deliveries).toHaveLength(DEFAULT_BOUNDS.maxDeliveries);
    expect(hooks.omitted).toBeGreaterThan(0);
    expect(hooks.deliveries.length + hooks.omitted).toBeLessThanOrEqual(5000);
    expect(ms).toBeLessThan(AGENT_MS);
    expect(grewMiB).toBeLessThan(200);
  }, 60_000);

  test('a 100 MiB body: 413 past the bound, the first MiB kept, the sender cut off', async () => {
    const { capture, ms, grewMiB } = await run('huge');
    wentOn(capture);
    const [d] = capture.webhooks!.deliveries;
    expect(d).toMatchObject({ cut: 'bytes', answered: 413 });
    expect(Buffer.byteLength(d!.body)).toBe(DEFAULT_BOUNDS.maxBodyBytes);
    expect(d!.bodyBytes).toBeLessThan(100 * MIB);
    expect(ms).toBeLessThan(AGENT_MS);
    expect(grewMiB).toBeLessThan(200);
  }, 60_000);

  test('a slow, never-ending body is cut at the time bound (408) and recorded as far as it came', async () => {
    const { capture, ms } = await run('slow');
    wentOn(capture);
    const [d] = capture.webhooks!.deliveries;
    expect(d).toMatchObject({ cut: 'time', answered: 408 });
    expect(d!.body.startsWith('{ ')).toBe(true);
    expect(ms).toBeLessThan(AGENT_MS);
  }, 60_000);

  test('a delivery to a path never handed out: 404, recorded without a call', async () => {
    const { capture } = await run('wrong-path');
    wentOn(capture);
    expect(capture.webhooks!.deliveries).toEqual([expect.objectContaining({ target: '/somewhere/else', answered: 404 })]);
    expect(capture.webhooks!.deliveries[0]!.call).toBeUndefined();
  }, 60_000);

  test('a body that is not JSON is recorded as sent (its event is its hash: 503 first)', async () => {
    const { capture } = await run('not-json');
    wentOn(capture);
    expect(capture.webhooks!.deliveries).toEqual([
      expect.objectContaining({ body: 'this is not JSON \u0000', bodyEncoding: 'utf8', answered: 503 }),
    ]);
  }, 60_000);
});
