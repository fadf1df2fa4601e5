// The webhook faults against the webhook.* checks, live: the reference seller (in process, over real
// loopback HTTP) books once inline and once async (a guaranteed product), each with a
// push_notification_config naming a loopback receiver that answers the first delivery of each event 503
// (as the harness's receiver does); the deliveries are verified with the seller's JWKS and judged. The
// clean seller passes all four; each fault trips exactly its id. (The matrix proves the same through the
// harness's own receiver; this is the fast, direct proof of the checks on their own.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { AgentCapture, WebhookDelivery } from '../../harness/record/exchange.ts';
import type { Check, Status } from '../../harness/checks/check.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { fillExchange } from '../../harness/checks/vector-cases.ts';
import { createSchemaService, sdkSchemaSource } from '../../harness/schemas/index.ts';
import { compositeSchemaSource, shippedSchemaSource } from '../../harness/schemas/source.ts';
import { verifyCapturedWebhooks } from '../../harness/webhooks/verify.ts';
import { startHttp } from '../../sellers/reference/http.ts';
import { webhookJwks } from '../../sellers/reference/webhooks.ts';
import type { Fault } from '../../sellers/faults/_fault.ts';
import noInline from '../../harness/checks/webhook/no-inline-duplicate.ts';
import delivery from '../../harness/checks/webhook/delivery.ts';
import retry from '../../harness/checks/webhook/retry-idempotency.ts';
import signature from '../../harness/checks/webhook/signature.ts';
import unsigned from '../../sellers/faults/webhook-unsigned.ts';
import operationIdDropped from '../../sellers/faults/webhook-operation-id-dropped.ts';
import retryNewKey from '../../sellers/faults/webhook-retry-new-key.ts';
import inlineDuplicate from '../../sellers/faults/webhook-inline-duplicate.ts';

/** The shipped 3.1.19 tree (the reference seller serves 3.1), then the SDK's 3.0. */
const SCHEMAS = compositeSchemaSource([shippedSchemaSource(join(import.meta.dirname, '../../adcp-schemas')), sdkSchemaSource()]);
const CHECKS: readonly Check[] = [noInline, delivery, retry, signature];
const RANK: Record<Status, number> = { 'not-applicable': 0, pass: 1, untested: 2, warn: 3, fail: 4 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const day = 86_400_000;

function booking(id: string, product: string, pricing: string, base: string, call: number): Record<string, unknown> {
  return {
    idempotency_key: `wh-${id}-0123456789-${Math.random().toString(36).slice(2)}`,
    account: { brand: { domain: 'buyer.example' }, operator: 'buyer.example', sandbox: true },
    brand: { domain: 'buyer.example' },
    start_time: new Date(Date.now() + 7 * day).toISOString(),
    end_time: new Date(Date.now() + 37 * day).toISOString(),
    packages: [{ product_id: product, pricing_option_id: pricing, budget: 5000 }],
    context: { correlation_id: id, nested: { n: call } },
    push_notification_config: { url: `${base}/wh/${call}`, operation_id: `op_${id}` },
  };
}

/** Receiver: 503 to the first delivery of each (path, status), 200 after; every request kept. */
async function receiver(): Promise<{ server: Server; base: string; deliveries: WebhookDelivery[] }> {
  const deliveries: WebhookDelivery[] = [];
  const refused = new Set<string>();
  const started = Date.now();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Array<[string, string]> = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
      const call = /^\/wh\/(\d+)/.exec(req.url ?? '')?.[1];
      let status = '';
      try {
        status = String((JSON.parse(body) as { status?: unknown }).status);
      } catch {
        /* judged by the checks */
      }
      const event = `${req.url} ${status}`;
      const answered = refused.has(event) ? 200 : 503;
      refused.add(event);
      deliveries.push({
        at: Date.now() - started,
        method: req.method ?? 'POST',
        target: req.url ?? '/',
        ...(call !== undefined ? { call: Number(call) } : {}),
        headers,
        body,
        bodyEncoding: 'utf8',
        bodyBytes: Buffer.byteLength(body),
        answered,
      });
      res.statusCode = answered;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, deliveries };
}

async function judgeRun(faults: Fault[]): Promise<Record<string, Status>> {
  const { server, base, deliveries } = await receiver();
  const seller = await startHttp({
    transport: 'http',
    port: 0,
    responseMode: 'json',
    outputShape: 'root',
    faults,
    sandbox: true,
    exitOnStdinEnd: false,
  });
  const client = new Client({ name: 'webhook-faults', version: '0.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${seller.port}/mcp`)));
    const calls = [
      booking('inline', 'sports_display_ros', 'ros_cpm_auction', base, 0),
      booking('async', 'sports_video_premium', 'video_cpm_fixed', base, 1),
    ];
    const exchanges = [];
    for (const args of calls) {
      const result = await client.request({ method: 'tools/call', params: { name: 'create_media_buy', arguments: args } }, z.any());
      exchanges.push(fillExchange({ tool: 'create_media_buy', request: { name: 'create_media_buy', arguments: args }, result }));
    }
    // The task finishes in ~300 ms; retries back off 200, 400, 800 ms: wait for them to settle.
    for (let i = 0; i < 60 && !deliveries.some((d) => d.call === 1 && d.answered === 200 && d.body.includes('"completed"')); i++)
      await sleep(50);
    await sleep(700);
    const capture: AgentCapture = {
      agent: {
        name: 'reference',
        transport: 'http',
        production: false,
        sandbox: true,
        webhookKeys: { ...webhookJwks(), source: 'inline' } as never,
      },
      initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: {}, durationMs: 0 },
      exchanges,
      webhooks: { base: `${base}/wh`, kind: 'loopback', deliveries, omitted: 0, waitedMs: 0 },
    };
    await verifyCapturedWebhooks(capture);
    const out: Record<string, Status> = {};
    // Judged as a run judges: with the AdCP schemas for the payloads.
    const schemas = await createSchemaService(capture, SCHEMAS);
    // The clean seller's payloads are validated, not skipped.
    // The clean seller's payloads validate — where the 3.1 schema tree is there to validate them (a fresh clone has none).
    if (faults.length === 0)
      for (const d of deliveries) {
        const v = schemas.validateWebhookPayload!(JSON.parse(d.body) as Record<string, unknown>);
        if (!('skip' in v)) expect(v).toEqual({ errors: [] });
      }
    for (const o of judgeAgent(capture, { schemas }, undefined, CHECKS))
      out[o.check] = out[o.check] !== undefined && RANK[out[o.check]!] >= RANK[o.status] ? out[o.check]! : o.status;
    return out;
  } finally {
    await client.close().catch(() => {});
    await seller.close();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

const ALL_PASS = Object.fromEntries(CHECKS.map((c) => [c.id, 'pass' as Status]));

describe('webhook faults, live over loopback HTTP', () => {
  it('the clean seller passes every webhook check', async () => {
    expect(await judgeRun([])).toEqual(ALL_PASS);
  }, 20_000);
  it.each([unsigned, operationIdDropped, retryNewKey, inlineDuplicate].map((f) => [f.name, f] as const))(
    '%s trips exactly its id',
    async (_name, fault) => {
      expect(await judgeRun([fault])).toEqual({ ...ALL_PASS, ...fault.trips });
    },
    20_000,
  );
});
