// The reference seller answers each call in the shapes of the AdCP release it serves: 3.0 answers carry
// no field 3.1 added (valid against the 3.0 response schemas from @adcp/sdk, and nothing they do not
// declare), 3.1 answers carry what the 3.1.19 response schemas require (from ../shared when present).
// In-process (every tool's handler at each release), then live (the release served follows the pin).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadTree, responseErrors, sharedPresent, undeclaredFields } from './adcp-schemas.ts';
import { CALL_ORDER, openSession, probeArguments, type SellerSession } from './client.ts';
import { payloadOf } from '../../sellers/reference/envelope.ts';
import type { JsonObject } from '../../sellers/reference/json.ts';
import { SellerState } from '../../sellers/reference/state.ts';
import { RELEASE_3_1_FIELDS, RELEASE_3_1_SIGNAL_FIELDS, toolSpecs, type Release } from '../../sellers/reference/tools.ts';

/** Said in the test titles, so a skipped 3.1.19 validation says why. */
const FROM_SHARED = sharedPresent ? '(../shared)' : '(SKIPPED: ../shared is absent, no adcp/schemas/3.1.19 tree)';
/**
 * Keys a 3.0 answer carries that the 3.0 task schemas do not declare, on purpose: the protocol envelope's
 * `status` (3.0 core/protocol-envelope.json; the task schemas define only the body), and capabilities'
 * `adcp.supported_versions`, which tells every caller, 3.0 ones included, which releases it may pin.
 */
const ENVELOPE_30 = new Set(['/status', '/adcp/supported_versions']);

type Json = Record<string, unknown>;

/** Every tool's payload at `release`, in one seller state, as the envelope would carry it. */
async function payloadsAt(release: Release): Promise<Map<string, JsonObject>> {
  const state = new SellerState();
  const out = new Map<string, JsonObject>();
  for (const tool of CALL_ORDER) {
    const args = probeArguments(tool, `rel-${release}-${tool}`) as JsonObject;
    if ('media_buy_id' in args) args['media_buy_id'] = out.get('create_media_buy')!['media_buy_id'];
    const body = await toolSpecs.find((s) => s.name === tool)!.run(args, { state, sandbox: true, release });
    out.set(tool, payloadOf(body, args['context'] as JsonObject));
  }
  return out;
}

// create_media_buy awaits its ad server: the payloads are made before the tests are collected.
const AT_30 = await payloadsAt('3.0');
const AT_31 = await payloadsAt('3.1');

describe('payloads per release (in-process)', () => {
  const at30 = AT_30;
  const at31 = AT_31;

  test.for(CALL_ORDER)('3.0: %s validates against the AdCP 3.0 response schema and declares nothing 3.0 lacks', (tool) => {
    const payload = at30.get(tool)!;
    expect(responseErrors(loadTree('3.0'), tool, payload)).toEqual([]);
    expect(undeclaredFields(loadTree('3.0'), tool, payload).filter((p) => !ENVELOPE_30.has(p))).toEqual([]);
  });

  test('3.0: no 3.1-only field is served (cache_scope, signal_ref, media_buy_status, create/update currency/total_budget)', () => {
    for (const [tool, fields] of Object.entries(RELEASE_3_1_FIELDS)) for (const f of fields) expect(at30.get(tool)).not.toHaveProperty(f);
    for (const signal of at30.get('get_signals')!['signals'] as Json[])
      for (const f of RELEASE_3_1_SIGNAL_FIELDS) expect(signal).not.toHaveProperty(f);
  });

  test.skipIf(!sharedPresent).for(CALL_ORDER)(`3.1: %s validates against the AdCP 3.1.19 response schema ${FROM_SHARED}`, (tool) => {
    expect(responseErrors(loadTree('3.1.19'), tool, at31.get(tool)!)).toEqual([]);
  });

  test('3.1: the 3.1 fields are served (media_buy_status, cache_scope, signal_ref), and the 3.0 answers would fail 3.1.19', () => {
    expect(at31.get('create_media_buy')).toMatchObject({ media_buy_status: 'pending_creatives', currency: 'USD', revision: 1 });
    expect(at31.get('update_media_buy')).toMatchObject({ media_buy_status: 'paused', revision: 2 });
    expect(at31.get('get_products')).toMatchObject({ cache_scope: 'public' });
    expect(at31.get('get_signals')).toMatchObject({ cache_scope: 'public' });
    expect((at31.get('get_signals')!['signals'] as Json[]).every((s) => 'signal_ref' in s)).toBe(true);
    if (sharedPresent)
      expect(responseErrors(loadTree('3.1.19'), 'get_products', at30.get('get_products')!).join('\n')).toContain('cache_scope');
  });

  test('3.1: every answer is also valid at 3.0 (3.1 is additive)', () => {
    for (const tool of CALL_ORDER) expect(responseErrors(loadTree('3.0'), tool, at31.get(tool)!), tool).toEqual([]);
  });

  test('a replay is shaped for the release it is served at, whatever release booked it', async () => {
    const state = new SellerState();
    const spec = toolSpecs.find((s) => s.name === 'create_media_buy')!;
    const args = probeArguments('create_media_buy', 'rel-replay') as JsonObject;
    const first = await spec.run(args, { state, sandbox: true, release: '3.1' });
    const replay = await spec.run(args, { state, sandbox: true, release: '3.0' });
    expect(first).toHaveProperty('media_buy_status');
    expect(replay).toMatchObject({ media_buy_id: first['media_buy_id'], replayed: true });
    expect(replay).not.toHaveProperty('media_buy_status');
    const again = await spec.run(args, { state, sandbox: true, release: '3.1' });
    expect(again).toMatchObject({ media_buy_status: 'pending_creatives', replayed: true });
  });
});

describe('live: the shape follows the release served (stdio)', () => {
  let session: SellerSession;
  beforeAll(async () => {
    session = await openSession('stdio');
  });
  afterAll(async () => {
    await session?.close();
  });

  // The release served is the one the answer echoes (`adcp_version`); a seller that does not echo
  // serves its newest, 3.1. Either way the answer must be valid at that release.
  test.for([undefined, '3.0', '3.1'])('pin %s: every answer validates at the release served', async (pin) => {
    let booked: unknown;
    for (const tool of CALL_ORDER) {
      const args: Json = { ...probeArguments(tool, `live-${pin ?? 'none'}-${tool}`), ...(pin ? { adcp_version: pin } : {}) };
      if ('media_buy_id' in args) args['media_buy_id'] = booked;
      const result = await session.call(tool, args);
      expect(result['isError'], `${tool}: ${JSON.stringify(result['structuredContent'])}`).toBeUndefined();
      const sc = result['structuredContent'] as Json;
      if (tool === 'create_media_buy') booked = sc['media_buy_id'];
      const echoed = sc['adcp_version'];
      const served = typeof echoed === 'string' ? echoed : '3.1';
      if (pin) expect(served, `${tool} pinned ${pin}`).toBe(pin);
      if (served === '3.0') {
        expect(responseErrors(loadTree('3.0'), tool, sc), tool).toEqual([]);
        const extra = undeclaredFields(loadTree('3.0'), tool, sc).filter((p) => !ENVELOPE_30.has(p) && p !== '/adcp_version');
        expect(extra, tool).toEqual([]);
      } else if (sharedPresent) {
        expect(responseErrors(loadTree('3.1.19'), tool, sc), tool).toEqual([]);
      } else {
        expect(responseErrors(loadTree('3.0'), tool, sc), tool).toEqual([]);
      }
    }
  });
});
