// The reference seller as a client sees it, over stdio and streamable HTTP (JSON and SSE): every tool
// answers a flat, completed AdCP payload that echoes the caller's context and validates against the
// official AdCP response schemas (3.0 from @adcp/sdk; 3.1.19 from ../shared when present).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadTree, responseErrors, sharedPresent } from './adcp-schemas.ts';
import { CALL_ORDER, openSession, probeArguments, type Mode, type SellerSession } from './client.ts';
import { REFERENCE_SELLER_TASKS } from '../../sellers/launch.ts';
import { POLLING_TOOLS } from '../../sellers/reference/tasks.ts';

const ADCP_TOOLS = [...REFERENCE_SELLER_TASKS];
const MIRROR_TOOLS = new Set([
  'get_adcp_capabilities',
  'get_products',
  'list_creative_formats',
  'get_media_buys',
  'get_signals',
  'create_media_buy',
  'update_media_buy',
]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function firstText(result: Json): string {
  const content = result['content'];
  expect(Array.isArray(content)).toBe(true);
  const item = (content as unknown[])[0];
  expect(isObject(item) && item['type'] === 'text' && typeof item['text'] === 'string').toBe(true);
  return (item as { text: string }).text;
}

const MODES: Mode[] = ['stdio', 'json', 'sse'];

for (const mode of MODES) {
  describe(`reference seller over ${mode}`, () => {
    let session: SellerSession;
    const results = new Map<string, { args: Json; result: Json }>();

    beforeAll(async () => {
      session = await openSession(mode);
      for (const tool of CALL_ORDER) {
        const args = probeArguments(tool, `${mode}-${tool}`);
        // update_media_buy and provide_performance_feedback act on the buy booked above.
        if ('media_buy_id' in args)
          args['media_buy_id'] = (results.get('create_media_buy')?.result['structuredContent'] as Json)['media_buy_id'];
        results.set(tool, { args, result: await session.call(tool, args) });
      }
    });
    afterAll(async () => {
      await session?.close();
    });

    test('lists the AdCP tools, each with an object inputSchema and an object outputSchema', async () => {
      const tools = await session.listTools();
      // Then the AdCP polling tool: legacy `tasks/get` and its alias (test/sellers/tasks.test.ts calls them).
      expect(tools.map((t) => t['name'])).toEqual([...ADCP_TOOLS, ...POLLING_TOOLS]);
      for (const tool of tools) {
        // AdCP's own `tasks/get` is the one name outside MCP's naming rule (required-tasks.mdx).
        if (tool['name'] !== 'tasks/get') expect(tool['name']).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
        expect(tool['inputSchema']).toMatchObject({ type: 'object' });
        expect(tool['outputSchema']).toMatchObject({ type: 'object' });
      }
    });

    test.for(CALL_ORDER)('%s answers a flat completed payload that echoes the context unchanged', (tool) => {
      const { args, result } = results.get(tool)!;
      expect(result['isError']).toBeUndefined();
      const sc = result['structuredContent'];
      expect(isObject(sc)).toBe(true);
      expect((sc as Json)['status']).toBe('completed');
      expect((sc as Json)['context']).toEqual(args['context']);
      expect(Object.keys(sc as Json)).not.toEqual(['payload']);
      for (const legacy of ['task_status', 'response_status']) expect(sc).not.toHaveProperty(legacy);
      // The text item: JSON mirror for discovery tools, a readable summary for the others.
      const text = firstText(result);
      if (MIRROR_TOOLS.has(tool)) expect(JSON.parse(text)).toEqual(sc);
      else expect(() => JSON.parse(text)).toThrow();
    });

    test.for(CALL_ORDER)('%s validates against the AdCP 3.0 response schema', (tool) => {
      const sc = results.get(tool)!.result['structuredContent'];
      expect(responseErrors(loadTree('3.0'), tool, sc)).toEqual([]);
    });

    test.skipIf(!sharedPresent).for(CALL_ORDER)('%s validates against the AdCP 3.1.19 response schema (../shared)', (tool) => {
      const sc = results.get(tool)!.result['structuredContent'];
      expect(responseErrors(loadTree('3.1.19'), tool, sc)).toEqual([]);
    });

    test('the mutating calls booked something the reads then report', async () => {
      const sc = (tool: string) => results.get(tool)!.result['structuredContent'] as Json;
      const buyId = sc('create_media_buy')['media_buy_id'];
      expect(typeof buyId).toBe('string');
      // The default list shows active buys only (get_media_buys.mdx: status_filter defaults to ["active"]);
      // the paused buy is found by id, and in the list of paused buys.
      expect(sc('get_media_buys')['media_buys']).toEqual([]);
      const ids = (r: Json) => ((r['structuredContent'] as Json)['media_buys'] as Json[]).map((b) => b['media_buy_id']);
      expect(ids(await session.call('get_media_buys', { media_buy_ids: [buyId] }))).toEqual([buyId]);
      expect(ids(await session.call('get_media_buys', { status_filter: ['paused'] }))).toContain(buyId);
      expect((sc('get_media_buy_delivery')['media_buy_deliveries'] as Json[]).map((d) => d['media_buy_id'])).toContain(buyId);
      expect((sc('list_creatives')['creatives'] as Json[]).length).toBeGreaterThan(0);
    });

    test('input that breaks the input schema → isError + VALIDATION_ERROR naming the field, context echoed', async () => {
      const context = { correlation_id: `${mode}-invalid` };
      const result = await session.call('get_products', { buying_mode: 42, brief: 'x', context });
      expect(result['isError']).toBe(true);
      const sc = result['structuredContent'] as Json;
      expect(sc['context']).toEqual(context);
      const error = sc['adcp_error'] as Json;
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', recovery: 'correctable', field: 'buying_mode' });
      expect(Buffer.byteLength(String(error['message']))).toBeLessThanOrEqual(256);
      expect(JSON.parse(firstText(result))).toEqual({ adcp_error: error });
      // A missing required field is named too.
      const missing = await session.call('get_products', { brief: 'x' });
      expect((missing['structuredContent'] as Json)['adcp_error']).toMatchObject({ code: 'VALIDATION_ERROR', field: 'buying_mode' });
    });

    test('create_media_buy is idempotent by idempotency_key, and a reused key with another request conflicts', async () => {
      const args = probeArguments('create_media_buy', `${mode}-idem`);
      const first = (await session.call('create_media_buy', args))['structuredContent'] as Json;
      const again = (await session.call('create_media_buy', { ...args, context: { correlation_id: 'retry' } }))[
        'structuredContent'
      ] as Json;
      expect(again['media_buy_id']).toBe(first['media_buy_id']);
      expect(again['replayed']).toBe(true);
      expect(again['context']).toEqual({ correlation_id: 'retry' });
      const other = await session.call('create_media_buy', {
        ...args,
        packages: [{ product_id: 'sports_video_premium', pricing_option_id: 'video_cpm_fixed', budget: 1 }],
      });
      expect(other['isError']).toBe(true);
      const conflict = (other['structuredContent'] as Json)['adcp_error'] as Json;
      expect(conflict).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', recovery: 'correctable' });
      // Nothing says how the two requests differ: no field, no details.
      expect(conflict).not.toHaveProperty('field');
      expect(conflict).not.toHaveProperty('details');
    });

    test('sync_creatives with dry_run previews without storing', async () => {
      const args = { ...probeArguments('sync_creatives', `${mode}-dry`), dry_run: true };
      const sc = (await session.call('sync_creatives', args))['structuredContent'] as Json;
      expect(sc['dry_run']).toBe(true);
      const listed = (await session.call('list_creatives', {}))['structuredContent'] as Json;
      expect((listed['creatives'] as Json[]).map((c) => c['creative_id'])).not.toContain(`cr_${mode}-dry`);
    });

    test('each advertised outputSchema compiles under Ajv 2020 and the real structuredContent validates', async () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      // The polling tools need a task to answer about: test/sellers/tasks.test.ts validates them.
      for (const tool of (await session.listTools()).filter((t) => results.has(String(t['name'])))) {
        const validate = ajv.compile(tool['outputSchema'] as object);
        const { result } = results.get(String(tool['name']))!;
        expect(validate(result['structuredContent']), JSON.stringify(validate.errors)).toBe(true);
      }
    });
  });
}

describe('output shapes (seed 004), odd calls, read-only mode', () => {
  test('root shape (default): meta-id tools advertise a root $ref into $defs; get_adcp_capabilities a plain object schema', async () => {
    const session = await openSession('stdio');
    try {
      const tools = await session.listTools();
      const byName = new Map(tools.map((t) => [t['name'], t['outputSchema'] as Json]));
      expect(byName.get('get_products')).toMatchObject({ type: 'object', $ref: '#/$defs/get_products_response' });
      expect(byName.get('get_adcp_capabilities')).not.toHaveProperty('$ref');
    } finally {
      await session.close();
    }
  });

  test('legacy shape: {properties:{result:{$ref}}, required:[result]} and structuredContent {result:{…}}', async () => {
    const session = await openSession('stdio', { outputShape: 'legacy' });
    try {
      const tools = await session.listTools();
      const products = tools.find((t) => t['name'] === 'get_products')!['outputSchema'] as Json;
      expect(products).toMatchObject({
        type: 'object',
        properties: { result: { $ref: '#/$defs/get_products_response' } },
        required: ['result'],
      });
      const args = probeArguments('get_products', 'legacy');
      const result = await session.call('get_products', args);
      const sc = result['structuredContent'] as Json;
      expect(Object.keys(sc)).toEqual(['result']);
      expect((sc['result'] as Json)['context']).toEqual(args['context']);
      const validate = new Ajv2020({ strict: false }).compile(products);
      expect(validate(sc)).toBe(true);
      // Tools without a meta id stay flat.
      const caps = (await session.call('get_adcp_capabilities', {}))['structuredContent'] as Json;
      expect(caps['status']).toBe('completed');
    } finally {
      await session.close();
    }
  });

  test('odd calls get AdCP errors, never SDK −32602: unknown tool, non-object arguments, no arguments', async () => {
    const session = await openSession('stdio');
    try {
      const unknown = await session.call('no_such_tool', { context: { correlation_id: 'u' } });
      expect(unknown['isError']).toBe(true);
      expect(unknown['structuredContent']).toMatchObject({ adcp_error: { code: 'UNSUPPORTED_FEATURE' }, context: { correlation_id: 'u' } });
      const raw = (await session.client.request(
        {
          method: 'tools/call',
          params: { name: 'get_products', arguments: ['not', 'an', 'object'] as unknown as Record<string, unknown> },
        },
        z.any(),
      )) as Json;
      expect((raw['structuredContent'] as Json)['adcp_error']).toMatchObject({ code: 'VALIDATION_ERROR', field: 'arguments' });
      const bare = (await session.client.request({ method: 'tools/call', params: { name: 'get_adcp_capabilities' } }, z.any())) as Json;
      expect((bare['structuredContent'] as Json)['status']).toBe('completed');
    } finally {
      await session.close();
    }
  });

  test('--no-sandbox lists no mutating tool and refuses them', async () => {
    const session = await openSession('stdio', { sandbox: false });
    try {
      const names = (await session.listTools()).map((t) => t['name']);
      expect(names).not.toContain('create_media_buy');
      expect(names).not.toContain('sync_creatives');
      const refused = await session.call('create_media_buy', probeArguments('create_media_buy', 'prod'));
      expect(refused['isError']).toBe(true);
      const caps = (await session.call('get_adcp_capabilities', {}))['structuredContent'] as Json;
      expect((caps['account'] as Json)['sandbox']).toBe(false);
    } finally {
      await session.close();
    }
  });
});
