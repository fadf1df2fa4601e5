// Sellers that misuse the harness's webhook receiver (test/hostile/servers/webhook-sender.mjs, a stdio
// sandbox seller delivering on its first sync_creatives call): a flood, a 100 MiB body, a slow body, a wrong
// path, a body that is not JSON. Each is bounded (count, bytes, time; memory), recorded, and the session goes
// on to its end. And a seller delivering a payload is recorded with its exact bytes, 503 first, 204 after.
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import type { StdioAgentConfig } from '../../harness/config/types.ts';
import { own } from '../../harness/json.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { DEFAULT_BOUNDS } from '../../harness/webhooks/receiver.ts';
import { sessionFacts } from '../../harness/run/judge/session-facts.ts';
import { verificationText } from '../../harness/webhooks/report-facts.ts';

const SELLER = fileURLToPath(new URL('./servers/webhook-sender.mjs', import.meta.url));
const AGENT_MS = 30_000;
const MIB = 1024 * 1024;

const agent = (behaviour: string, over: Partial<StdioAgentConfig> = {}): StdioAgentConfig => ({
  name: `webhook-${behaviour}`,
  transport: 'stdio',
  command: process.execPath,
  args: [SELLER, behaviour],
  env: {},
  ...over,
  timeouts: { connectMs: 10_000, callMs: 5_000, agentMs: AGENT_MS },
  production: false,
  sandbox: true,
  maxBytes: DEFAULT_MAX_BYTES,
  secrets: [],
});

/** The capture, with its wall time and how much the harness's RSS grew meanwhile. */
async function run(
  behaviour: string,
  over: Partial<StdioAgentConfig> = {},
): Promise<{ capture: AgentCapture; ms: number; grewMiB: number }> {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const capture = await captureAgent(agent(behaviour, over), { webhooks: { lateMs: 500 } });
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

  test('badly signed deliveries: each rejected with its profile code, the good one verified, webhook.signature fails them', async () => {
    // A key of the sender's own, fresh per run: the private half reaches the seller through its env (a
    // secret, so never in a report), the public half is the agent's webhookKeys.
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const kid = 'hostile-sender-key';
    const priv = { ...privateKey.export({ format: 'jwk' }), kid };
    const pub = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'EdDSA', use: 'sig', key_ops: ['verify'], adcp_use: 'request-signing' };
    const { capture, ms } = await run('bad-signature', {
      env: { WEBHOOK_SENDER_JWK: JSON.stringify(priv) },
      secrets: [JSON.stringify(priv)],
      webhookKeys: { keys: [pub] as never, source: 'inline' },
    });
    wentOn(capture);
    expect(ms).toBeLessThan(AGENT_MS);
    const byCase = new Map(
      capture.webhooks!.deliveries.map((d) => [(/"case":"([a-z-]+)"/.exec(d.body)?.[1] ?? '?') + (d.answered === 204 ? '+' : ''), d]),
    );
    const codeOf = (c: string) => {
      const v = byCase.get(c)?.verification;
      return v?.ok === false ? v.code : v?.ok;
    };
    expect(codeOf('good')).toBe(true);
    // The good delivery sent again, nonce and all: the receiver sees the same event (204) and the nonce twice.
    expect(codeOf('good+')).toBe('webhook_signature_replayed');
    expect(codeOf('tampered')).toBe('webhook_signature_digest_mismatch');
    expect(codeOf('garbage-signature')).toBe('webhook_signature_invalid');
    expect(codeOf('unknown-key')).toBe('webhook_signature_key_unknown');
    expect(codeOf('malformed-input')).toBe('webhook_signature_header_malformed');
    expect(codeOf('wrong-tag')).toBe('webhook_signature_tag_invalid');
    // 12 KiB of Signature-Input: kept to the header bound, then refused, never parsed whole.
    expect(codeOf('huge-input')).toMatch(/^webhook_signature_/);
    expect(byCase.get('huge-input')!.headers.find(([k]) => k === 'signature-input')![1].length).toBe(DEFAULT_BOUNDS.maxHeaderChars);

    const signature = judgeAgent(capture, { agent: capture.agent }).filter((o) => o.check === 'webhook.signature');
    expect(signature.filter((o) => o.status === 'pass')).toHaveLength(1);
    expect(signature.filter((o) => o.status === 'fail')).toHaveLength(7);
    // The reports say each verdict, and never the sender's private key.
    const facts = sessionFacts(capture, [], [JSON.stringify(priv), String(priv.d)], []);
    const texts = facts.webhooks!.deliveries.map((d) => verificationText(d));
    expect(texts.filter((t) => t.startsWith('signature verified (key hostile-sender-key)'))).toHaveLength(1);
    expect(texts.filter((t) => t.startsWith('signature rejected: webhook_signature_'))).toHaveLength(7);
    expect(JSON.stringify(facts)).not.toContain(String(priv.d));
  }, 60_000);
});
