// Default probes: which tools are called, in what order, and that every VALID default probe is a valid
// request under the official AdCP request schema of its task (3.0 from @adcp/sdk; 3.1.19 from ../shared).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import {
  createMediaBuyArguments,
  defaultArguments,
  defaultProbes,
  INVALID_PROBE,
  updateMediaBuyArguments,
  withContext,
} from '../../harness/capture/probes.ts';
import { stdioAgent } from './agents.ts';

const addFormats = addFormatsModule.default;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SDK_30 = join(ROOT, 'node_modules/@adcp/sdk/dist/lib/schemas-data/3.0');
const SHARED_31 = resolve(ROOT, '..', 'shared', 'adcp', 'schemas', '3.1.19');

const ALL_TOOLS = [
  'get_adcp_capabilities',
  'get_products',
  'list_creative_formats',
  'list_creatives',
  'get_media_buys',
  'get_media_buy_delivery',
  'get_signals',
  'create_media_buy',
  'sync_creatives',
  'update_media_buy',
  'comply_test_controller',
].map((name) => ({ name }));

/** Every schema of one version tree in one draft-07 Ajv; tool name → compiled request validator. */
function requestValidators(dir: string): (tool: string) => ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  addFormats(ajv);
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((name) => {
      const p = join(d, name);
      if (statSync(p).isDirectory()) return name === 'async-response-refs' || name === 'bundled' ? [] : walk(p);
      return name.endsWith('.json') && name !== 'index.json' && !name.startsWith('manifest') ? [p] : [];
    });
  for (const file of walk(dir)) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { $id?: string };
    if (schema.$id && !ajv.getSchema(schema.$id)) ajv.addSchema(schema);
  }
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as {
    schemas: Record<string, { tasks?: Record<string, { request?: { $ref: string } }> }>;
  };
  const refs = new Map<string, string>();
  for (const area of Object.values(index.schemas)) {
    for (const [task, d] of Object.entries(area.tasks ?? {}))
      if (d.request && !refs.has(task)) refs.set(task.replace(/-/g, '_'), d.request.$ref);
  }
  return (tool) => {
    const ref = refs.get(tool);
    if (!ref) throw new Error(`no request schema for ${tool} in ${dir}`);
    const fn = ajv.getSchema(ref);
    if (!fn) throw new Error(`schema ${ref} not loaded`);
    return fn;
  };
}

describe('defaultProbes', () => {
  test('read-only tools the agent lists, capabilities first, one invalid call; no mutations unless sandbox', () => {
    const probes = defaultProbes(ALL_TOOLS, stdioAgent('x'));
    expect(probes.map((p) => `${p.tool}:${p.intent}`)).toEqual([
      'get_adcp_capabilities:valid',
      'get_products:valid',
      'list_creative_formats:valid',
      'list_creatives:valid',
      'get_media_buys:valid',
      'get_media_buy_delivery:valid',
      'get_signals:valid',
      'get_products:invalid',
    ]);
    expect(defaultProbes([{ name: 'get_signals' }], stdioAgent('x')).map((p) => p.tool)).toEqual(['get_signals']);
    const sandbox = defaultProbes(ALL_TOOLS, stdioAgent('x', { sandbox: true })).map((p) => p.tool);
    // create_media_buy is booked by the idempotency scenario (a product the seller offered), not a probe.
    expect(sandbox.slice(-1)).toEqual(['sync_creatives']);
    expect(sandbox).not.toContain('create_media_buy');
    expect(sandbox).not.toContain('update_media_buy');
    expect(sandbox).not.toContain('comply_test_controller');
  });

  const trees = [
    { name: 'AdCP 3.0 (@adcp/sdk)', dir: SDK_30, present: true, absent: '' },
    { name: 'AdCP 3.1.19 (../shared)', dir: SHARED_31, present: existsSync(SHARED_31), absent: ' (skipped when ../shared is absent)' },
  ];
  for (const tree of trees) {
    test.skipIf(!tree.present)(`every valid default probe validates against the ${tree.name} request schema${tree.absent}`, () => {
      const validator = requestValidators(tree.dir);
      const probes = defaultProbes(ALL_TOOLS, stdioAgent('x', { sandbox: true }));
      for (const probe of probes) {
        const validate = validator(probe.tool);
        const args = withContext(probe.arguments, 'adcp-conformance.test.0');
        const ok = validate(args);
        if (probe.intent === 'invalid') {
          expect(ok, `${probe.tool} (invalid probe) must break its schema`).toBe(false);
        } else {
          expect(validate.errors ?? [], `${probe.tool}: ${JSON.stringify(validate.errors)}`).toEqual([]);
        }
      }
      expect(validator(INVALID_PROBE.tool)(INVALID_PROBE.arguments)).toBe(false);
    });

    test.skipIf(!tree.present)(
      `every request the business-rule scenarios build validates against the ${tree.name} request schema${tree.absent}`,
      () => {
        const validator = requestValidators(tree.dir);
        const booking = createMediaBuyArguments({ productId: 'p1', pricingOptionId: 'po1', bidPrice: 4.5 });
        const { idempotency_key: _key, ...withoutKey } = booking;
        const requests: Array<[string, Record<string, unknown>, boolean]> = [
          ['create_media_buy', booking, true],
          ['create_media_buy', createMediaBuyArguments(), true],
          ['update_media_buy', updateMediaBuyArguments('adcp-conformance-unknown-1a2b3c4d'), true],
          // The missing-key step breaks the schema on purpose (idempotency_key is required).
          ['create_media_buy', withoutKey, false],
          ['get_products', { ...defaultArguments('get_products')!, adcp_major_version: 3 }, true],
          ['get_products', { ...defaultArguments('get_products')!, adcp_major_version: 99 }, true],
          ['get_products', { ...defaultArguments('get_products')!, pagination: { max_results: 1, cursor: 'opaque' } }, true],
          ['list_creative_formats', { pagination: { max_results: 1 } }, true],
        ];
        for (const [tool, args, valid] of requests) {
          const validate = validator(tool);
          expect(
            validate(withContext(args, 'adcp-conformance.test.0')),
            `${tool} ${JSON.stringify(args)}: ${JSON.stringify(validate.errors)}`,
          ).toBe(valid);
        }
      },
    );
  }
});
