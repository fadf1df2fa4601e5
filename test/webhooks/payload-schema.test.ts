// A webhook payload validated against core/mcp-webhook-payload.json of the release judged (the AdCP 3.0
// tree shipped in @adcp/sdk), as webhook.delivery asks the schema service to.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillCapture } from '../../harness/checks/vector-cases.ts';
import delivery from '../../harness/checks/webhook/delivery.ts';
import { createSchemaService, sdkSchemaSource } from '../../harness/schemas/index.ts';
import { capture, exchange } from '../schemas/helpers.ts';

const valid = {
  idempotency_key: '6f1c1f0e-6d0b-4b8e-9d7e-1a2b3c4d5e6f',
  operation_id: 'op_1',
  task_id: 'task_1',
  task_type: 'create_media_buy',
  status: 'completed',
  timestamp: '2030-01-01T00:00:00Z',
};

describe('validateWebhookPayload', () => {
  it('accepts a payload of the schema, names what a broken one misses', async () => {
    const service = await createSchemaService(capture({ exchanges: [exchange('get_products', { products: [] })] }), sdkSchemaSource());
    expect(service.validateWebhookPayload!(valid)).toEqual({ errors: [] });
    const { operation_id: _op, ...noOperation } = valid;
    const broken = service.validateWebhookPayload!({ ...noOperation, status: 'done' });
    expect('errors' in broken && broken.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(broken)).toMatch(/operation_id|status/);
  });
});

describe('webhook.delivery with the schema service', () => {
  it('a payload the schema refuses fails with its schema errors', async () => {
    const doc = JSON.parse(readFileSync(join(import.meta.dirname, '../../vectors/checks/webhook.json'), 'utf8')) as {
      vectors: Array<{ id: string; capture: unknown }>;
    };
    const conformant = fillCapture(doc.vectors.find((v) => v.id === 'webhook-conformant')!.capture, undefined);
    const schemas = await createSchemaService(conformant, sdkSchemaSource());
    expect(delivery.judge(conformant, { schemas }).map((v) => v.verdict.status)).toEqual(['pass']);
    const broken = structuredClone(conformant);
    const d = broken.webhooks!.deliveries[1]!;
    d.body = JSON.stringify({ ...(JSON.parse(d.body) as object), status: 'done' });
    const [verdict] = delivery.judge(broken, { schemas });
    expect(verdict!.verdict).toMatchObject({
      status: 'fail',
      pointer: '/webhooks/deliveries/1/body/status',
      schemaErrors: expect.any(Array),
    });
  });
});
