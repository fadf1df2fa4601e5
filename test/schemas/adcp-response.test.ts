// AdCP response validation through the SchemaService: task → schema mapping for every task the
// reference seller exposes, at 3.0 (the @adcp/sdk data) and at 3.1.19 (../shared), valid and invalid
// payloads, additionalProperties, async variants, and that validation never changes the payload.
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import {
  createSchemaService,
  dirSchemaSource,
  registryFor,
  sdkSchemaSource,
  type AgentSchemaService,
} from '../../harness/schemas/index.ts';
import {
  capture,
  minimal30,
  minimal31,
  NO_SHARED,
  NO_SHARED_MESSAGE,
  RESPONSE_SCHEMA_PATHS,
  SELLER_TASKS,
  SHARED_3_1,
  SHARED_SCHEMAS,
} from './helpers.ts';

const SDK_VERSION = (createRequire(import.meta.url)('@adcp/sdk/package.json') as { version: string }).version;

/** A payload without `key`, built without copying the original. */
function without(payload: Record<string, unknown>, key: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(payload)) if (k !== key) out[k] = payload[k];
  return out;
}

/** The field each task's test removes (a required field of the success branch). */
const REQUIRED_FIELD: Record<(typeof SELLER_TASKS)[number], string> = {
  get_adcp_capabilities: 'supported_protocols',
  get_products: 'products',
  list_creative_formats: 'formats',
  list_creatives: 'creatives',
  get_media_buys: 'media_buys',
  get_media_buy_delivery: 'currency',
  get_signals: 'signals',
  create_media_buy: 'packages',
  sync_creatives: 'creatives',
  update_media_buy: 'media_buy_id',
  provide_performance_feedback: 'success',
  activate_signal: 'deployments',
};

const trees = [
  {
    label: '3.0 (@adcp/sdk)',
    skip: false,
    version: '3.0.6',
    service: () => createSchemaService(capture(), sdkSchemaSource()),
    payloads: minimal30,
  },
  {
    label: '3.1.19 (../shared)',
    skip: NO_SHARED,
    version: '3.1.19',
    service: () => createSchemaService(capture({ adcpVersion: '3.1' }), dirSchemaSource(SHARED_SCHEMAS)),
    payloads: minimal31,
  },
];

for (const tree of trees) {
  describe.skipIf(tree.skip)(`AdCP ${tree.label}${tree.skip ? ` — skipped: ${NO_SHARED_MESSAGE}` : ''}`, () => {
    let service: AgentSchemaService;
    const get = async () => (service ??= await tree.service());

    test('the version is chosen and stated', async () => {
      const s = await get();
      expect(s.adcpVersion.version).toBe(tree.version);
      expect(s.adcpVersion.reason).toMatch(/^(default|config): /);
    });

    test.for(SELLER_TASKS)('%s maps to its response schema, a minimal payload passes', async (task) => {
      const s = await get();
      const payload = tree.payloads()[task];
      expect(s.responseSchemaId(task, payload)).toEqual({ id: `/schemas/${tree.version}/${RESPONSE_SCHEMA_PATHS[task]}` });
      expect(s.validateAdcpResponse(task, payload)).toEqual({ errors: [] });
    });

    test.for(SELLER_TASKS)('%s without a required field fails with the pointer and keyword', async (task) => {
      const s = await get();
      const field = REQUIRED_FIELD[task];
      const result = s.validateAdcpResponse(task, without(tree.payloads()[task], field));
      expect(result).toHaveProperty('errors');
      const errors = 'errors' in result ? result.errors : [];
      expect(errors).toContainEqual(
        expect.objectContaining({ pointer: '/', keyword: 'required', expected: `required property '${field}'` }),
      );
    });

    test('additionalProperties:false is honoured where the schema says, not elsewhere', async () => {
      const s = await get();
      const base = tree.payloads().list_creatives;
      // The response root allows extra keys …
      expect(s.validateAdcpResponse('list_creatives', { ...base, x_vendor_note: 'ok' })).toEqual({ errors: [] });
      // … core/pagination-response.json does not.
      const result = s.validateAdcpResponse('list_creatives', { ...base, pagination: { has_more: false, bogus: 1 } });
      expect(result).toEqual({
        errors: [{ pointer: '/pagination/bogus', keyword: 'additionalProperties', expected: "no additional property 'bogus'", found: '1' }],
      });
    });

    test('validation never changes the payload (no defaults, no coercion, no stripping)', async () => {
      const s = await get();
      const payloads = [
        { ...tree.payloads().get_products, products: [{ product_id: 1, extra: { nested: [1, '2'] } }], unknown_root: true },
        { ...tree.payloads().list_creatives, pagination: { has_more: 'false', bogus: 1 } },
        JSON.parse('{"__proto__":{"x":1},"products":[],"status":"completed","constructor":{"prototype":{}}}') as Record<string, unknown>,
      ];
      for (const payload of payloads) {
        const before = JSON.stringify(payload);
        const copy = JSON.parse(before) as unknown;
        s.validateAdcpResponse('get_products', payload);
        s.validateAdcpResponse('list_creatives', payload);
        expect(JSON.stringify(payload)).toBe(before);
        expect(payload).toEqual(copy);
      }
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });

    test('async statuses validate against the status schema where the tree has one', async () => {
      const s = await get();
      const working = { status: 'working', percentage: 40 };
      expect(s.responseSchemaId('get_products', working)).toEqual({
        id: `/schemas/${tree.version}/media-buy/get-products-async-response-working.json`,
      });
      expect(s.validateAdcpResponse('get_products', working)).toEqual({ errors: [] });
      expect(s.validateAdcpResponse('get_products', { status: 'working', percentage: 'forty' })).toEqual({
        errors: [{ pointer: '/percentage', keyword: 'type', expected: 'type number', found: '"forty"' }],
      });
      const submitted = s.responseSchemaId('create_media_buy', { status: 'submitted' });
      expect(submitted).toEqual({ id: `/schemas/${tree.version}/media-buy/create-media-buy-async-response-submitted.json` });
      // list_creatives has no async schemas: a working answer is skipped, not judged by the final schema.
      expect(s.validateAdcpResponse('list_creatives', { status: 'working' })).toEqual({
        skip: `AdCP ${tree.version} has no 'working' response schema for list_creatives`,
      });
    });

    test('a tool outside AdCP is skipped with the reason', async () => {
      const s = await get();
      expect(s.validateAdcpResponse('my_custom_tool', {})).toEqual({
        skip: `AdCP ${tree.version} defines no response schema for tool "my_custom_tool"`,
      });
    });
  });
}

describe('AdCP 2.5 (@adcp/sdk v2.5 tree)', () => {
  test('config 2.5 picks the 2.5.3 tree; its tasks map, async variants by file naming', async () => {
    const s = await createSchemaService(capture({ adcpVersion: '2.5' }), sdkSchemaSource());
    expect(s.adcpVersion).toEqual({
      version: '2.5.3',
      reason: `config: adcpVersion "2.5" → schemas 2.5.3 · judged at AdCP 2.5 (patch 2.5.3), schemas: @adcp/sdk ${SDK_VERSION}`,
    });
    expect(s.validateAdcpResponse('get_products', { products: [] })).toEqual({ errors: [] });
    expect(s.responseSchemaId('list_creatives', {})).toEqual({ id: '/schemas/media-buy/list-creatives-response.json' });
    expect(s.responseSchemaId('get_products', { status: 'input-required' })).toEqual({
      id: '/schemas/media-buy/get-products-async-response-input-required.json',
    });
    expect(s.validateAdcpResponse('get_adcp_capabilities', {})).toHaveProperty('skip');
  });
});

describe('once per process', () => {
  test('two sources over the same data share one registry, and a validator is compiled once', async () => {
    const [a, b] = await Promise.all([registryFor(sdkSchemaSource(), '3.0.6'), registryFor(sdkSchemaSource(), '3.0.6')]);
    expect(a).toBe(b);
    const id = a.task('get_products')!.response;
    expect(a.validator(id)).toBe(b.validator(id));
  });

  test.skipIf(NO_SHARED)('a version directory and its parent directory both work', async () => {
    const direct = await createSchemaService(capture(), dirSchemaSource(SHARED_3_1));
    expect(direct.adcpVersion.version).toBe('3.1.19');
    expect(direct.adcpVersion.reason).toBe(`default: schemas 3.1.19 · judged at AdCP 3.1 (patch 3.1.19), schemas: --schemas ${SHARED_3_1}`);
  });
});
