// The reference seller's media-buy state (media-buy/media-buys/lifecycle.mdx, create_media_buy.mdx
// "Flight date validation", get_media_buys.mdx): flight dates, the status a buy shows as creatives are
// assigned and its flight runs, what get_media_buys lists, and what a buy keeps. In-process.
import { describe, expect, test } from 'vitest';
import { AdcpFailure } from '../../sellers/reference/adcp-error.ts';
import type { JsonObject } from '../../sellers/reference/json.ts';
import { START_SKEW_MS, statusOf, type MediaBuyRecord } from '../../sellers/reference/media-buys.ts';
import { SellerState } from '../../sellers/reference/state.ts';
import { toolSpecs, type Release, type ToolEnv } from '../../sellers/reference/tools.ts';
import { probeArguments } from './client.ts';

const spec = (tool: string) => toolSpecs.find((s) => s.name === tool)!;
const call = async (tool: string, args: JsonObject, env: ToolEnv): Promise<JsonObject> => spec(tool).run(args, env);

async function refusal(tool: string, args: JsonObject, env: ToolEnv): Promise<AdcpFailure['body']> {
  try {
    await call(tool, args, env);
  } catch (err) {
    if (err instanceof AdcpFailure) return err.body;
    throw err;
  }
  throw new Error('expected an AdCP error, got a success');
}

let n = 0;
const key = (what: string) => `state-${what}-${n++}-0123456789`;
const sandbox = (release?: Release): ToolEnv => ({ state: new SellerState(), sandbox: true, ...(release ? { release } : {}) });
const hour = 3600_000;

function booking(extra: JsonObject = {}, pkg: JsonObject = {}): JsonObject {
  const base = probeArguments('create_media_buy', `state-${n++}`) as JsonObject;
  const packages = (base['packages'] as JsonObject[]).map((p) => ({ ...p, ...pkg }));
  return { ...base, idempotency_key: key('book'), packages, ...extra };
}

async function syncCreative(env: ToolEnv, id: string): Promise<void> {
  const args = probeArguments('sync_creatives', 'state') as JsonObject;
  const creatives = (args['creatives'] as JsonObject[]).map((c) => ({ ...c, creative_id: id }));
  await call('sync_creatives', { ...args, idempotency_key: key('sync'), creatives }, env);
}

const buysOf = async (env: ToolEnv, args: JsonObject) => (await call('get_media_buys', args, env))['media_buys'] as JsonObject[];

describe('flight dates (create_media_buy.mdx "Flight date validation")', () => {
  test('a concrete start in the past → INVALID_REQUEST at 3.0 and 3.1, nothing booked; asap and a start within the skew book', async () => {
    for (const release of ['3.0', '3.1'] as const) {
      const env = sandbox(release);
      const past = booking({ start_time: new Date(Date.now() - hour).toISOString() });
      expect(await refusal('create_media_buy', past, env)).toMatchObject({ code: 'INVALID_REQUEST', field: 'start_time' });
      expect(env.state.mediaBuys.size).toBe(0);
      // The refusal stored nothing under the key: corrected, it books.
      expect(await call('create_media_buy', { ...past, start_time: 'asap' }, env)).toHaveProperty('media_buy_id');
      const skewed = booking({ start_time: new Date(Date.now() - START_SKEW_MS / 2).toISOString() });
      expect(await call('create_media_buy', skewed, env)).toHaveProperty('media_buy_id');
    }
  });

  test('an end at or before the start → INVALID_REQUEST naming end_time', async () => {
    const env = sandbox();
    const start = new Date(Date.now() + 48 * hour).toISOString();
    const reversed = booking({ start_time: start, end_time: new Date(Date.now() + 24 * hour).toISOString() });
    expect(await refusal('create_media_buy', reversed, env)).toMatchObject({ code: 'INVALID_REQUEST', field: 'end_time' });
    expect(await refusal('create_media_buy', booking({ start_time: start, end_time: start }), env)).toMatchObject({ field: 'end_time' });
  });
});

describe('the lifecycle (lifecycle.mdx)', () => {
  test('no creatives → pending_creatives; creatives assigned, flight ahead → pending_start; asap with creatives → active', async () => {
    const env = sandbox();
    await syncCreative(env, 'cr_state');
    const created = await call('create_media_buy', booking(), env);
    expect(created).toMatchObject({ media_buy_status: 'pending_creatives', revision: 1 });
    const id = String(created['media_buy_id']);
    const pkg = String((created['packages'] as JsonObject[])[0]!['package_id']);
    const assign = {
      idempotency_key: key('assign'),
      media_buy_id: id,
      packages: [{ package_id: pkg, creative_assignments: [{ creative_id: 'cr_state' }] }],
    };
    expect(await call('update_media_buy', assign, env)).toMatchObject({
      media_buy_status: 'pending_start',
      revision: 2,
      affected_packages: [{ package_id: pkg, creative_assignments: [{ creative_id: 'cr_state' }] }],
    });
    expect((await buysOf(env, { media_buy_ids: [id] }))[0]).toMatchObject({
      status: 'pending_start',
      packages: [{ package_id: pkg, creative_approvals: [{ creative_id: 'cr_state', approval_status: 'approved' }] }],
    });
    const live = await call(
      'create_media_buy',
      booking({ start_time: 'asap' }, { creative_assignments: [{ creative_id: 'cr_state' }] }),
      env,
    );
    expect(live).toMatchObject({ media_buy_status: 'active' });
    // A pause shows at once; resuming a buy that could serve makes it active again.
    const liveId = String(live['media_buy_id']);
    expect(await call('update_media_buy', { idempotency_key: key('p'), media_buy_id: liveId, paused: true }, env)).toMatchObject({
      media_buy_status: 'paused',
    });
    expect(await call('update_media_buy', { idempotency_key: key('r'), media_buy_id: liveId, paused: false }, env)).toMatchObject({
      media_buy_status: 'active',
    });
  });

  test('sync_creatives assignments attach creatives to packages (pending_creatives → pending_start, revision bumped); a dry run attaches nothing', async () => {
    const env = sandbox();
    const created = await call('create_media_buy', booking(), env);
    const id = String(created['media_buy_id']);
    const pkg = String((created['packages'] as JsonObject[])[0]!['package_id']);
    const args = probeArguments('sync_creatives', 'assign') as JsonObject;
    const creative = String((args['creatives'] as JsonObject[])[0]!['creative_id']);
    const assignments = [
      { creative_id: creative, package_id: pkg },
      { creative_id: creative, package_id: 'pkg_nope' },
    ];
    const dry = await call('sync_creatives', { ...args, idempotency_key: key('dry'), dry_run: true, assignments }, env);
    expect((dry['creatives'] as JsonObject[])[0]).toMatchObject({ assigned_to: [pkg] });
    expect((await buysOf(env, { media_buy_ids: [id] }))[0]).toMatchObject({ status: 'pending_creatives', revision: 1 });
    const synced = await call('sync_creatives', { ...args, idempotency_key: key('wet'), assignments }, env);
    expect((synced['creatives'] as JsonObject[])[0]).toMatchObject({
      assigned_to: [pkg],
      assignment_errors: { pkg_nope: expect.any(String) },
    });
    expect((await buysOf(env, { media_buy_ids: [id] }))[0]).toMatchObject({ status: 'pending_start', revision: 2 });
  });

  test('a create-time hold is latent until the buy could serve', async () => {
    const env = sandbox();
    await syncCreative(env, 'cr_hold');
    const held = await call('create_media_buy', booking({ paused: true }), env);
    expect(held).toMatchObject({ media_buy_status: 'pending_creatives' });
    const servable = booking({ paused: true, start_time: 'asap' }, { creative_assignments: [{ creative_id: 'cr_hold' }] });
    expect(await call('create_media_buy', servable, env)).toMatchObject({ media_buy_status: 'paused' });
  });

  test('a flight that has ended → completed: any update → INVALID_STATE, a cancel → NOT_CANCELLABLE', async () => {
    const env = sandbox();
    const id = String((await call('create_media_buy', booking(), env))['media_buy_id']);
    const buy = env.state.mediaBuys.get(id)!;
    buy.end_time = new Date(Date.now() - 1000).toISOString();
    expect(statusOf(buy)).toBe('completed');
    expect(await refusal('update_media_buy', { idempotency_key: key('u'), media_buy_id: id, paused: true }, env)).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(await refusal('update_media_buy', { idempotency_key: key('c'), media_buy_id: id, canceled: true }, env)).toMatchObject({
      code: 'NOT_CANCELLABLE',
    });
  });

  test('statusOf: canceled wins, then completed, then an update hold', () => {
    const buy: MediaBuyRecord = {
      media_buy_id: 'mb',
      currency: 'USD',
      total_budget: 1,
      start_time: new Date(Date.now() - hour).toISOString(),
      end_time: new Date(Date.now() + hour).toISOString(),
      confirmed_at: '',
      revision: 1,
      canceled: false,
      hold: 'update',
      packages: [{ package_id: 'p', product_id: 'x', pricing_option_id: 'y', budget: 1, creative_ids: [] }],
    };
    expect(statusOf(buy)).toBe('paused');
    expect(statusOf({ ...buy, end_time: new Date(Date.now() - 1).toISOString() })).toBe('completed');
    expect(statusOf({ ...buy, canceled: true, end_time: new Date(Date.now() - 1).toISOString() })).toBe('canceled');
  });

  test('an assignment of a creative the seller does not hold → CREATIVE_NOT_FOUND, nothing booked', async () => {
    const env = sandbox();
    const args = booking({}, { creative_assignments: [{ creative_id: 'cr_never_synced' }] });
    expect(await refusal('create_media_buy', args, env)).toMatchObject({
      code: 'CREATIVE_NOT_FOUND',
      field: 'packages[0].creative_assignments[0].creative_id',
    });
    expect(env.state.mediaBuys.size).toBe(0);
  });
});

describe('get_media_buys (get_media_buys.mdx)', () => {
  test('by id: any status; as a list: active by default, status_filter widens it, newest first, scoped to the account named', async () => {
    const env = sandbox();
    const first = String((await call('create_media_buy', booking(), env))['media_buy_id']);
    const second = String((await call('create_media_buy', booking(), env))['media_buy_id']);
    const other = booking({ account: { brand: { domain: 'other.example' }, operator: 'other.example', sandbox: true } });
    const foreign = String((await call('create_media_buy', other, env))['media_buy_id']);
    expect((await buysOf(env, { media_buy_ids: [first] })).map((b) => b['media_buy_id'])).toEqual([first]);
    expect(await buysOf(env, {})).toEqual([]);
    const all = await buysOf(env, { status_filter: ['pending_creatives'] });
    expect(all.map((b) => b['media_buy_id'])).toEqual([foreign, second, first]);
    const account = probeArguments('create_media_buy', 'x')['account'] as JsonObject;
    const mine = await buysOf(env, { account, status_filter: 'pending_creatives' });
    expect(mine.map((b) => b['media_buy_id'])).toEqual([second, first]);
  });

  test('a buy reads back with its id, revision, status, currency and the targeting it was booked with (create echoes the terms)', async () => {
    const env = sandbox();
    const targeting_overlay = { property_list: { agent_url: 'https://lists.example', list_id: 'allow_v1' } };
    const measurement_terms = {
      billing_measurement: { vendor: { domain: 'm.example' }, measurement_window: 'c7', max_variance_percent: 10 },
    };
    const created = await call('create_media_buy', booking({}, { targeting_overlay, measurement_terms }), env);
    expect((created['packages'] as JsonObject[])[0]).toMatchObject({ targeting_overlay, measurement_terms });
    const [read] = await buysOf(env, { media_buy_ids: [String(created['media_buy_id'])] });
    expect(read).toMatchObject({
      media_buy_id: created['media_buy_id'],
      revision: created['revision'],
      status: created['media_buy_status'],
      media_buy_status: created['media_buy_status'],
      currency: created['currency'],
      packages: [{ targeting_overlay }],
    });
    expect((read!['packages'] as JsonObject[])[0]).not.toHaveProperty('pricing_option_id');
    // An update's overlay replaces the stored one, and reads back.
    const swapped = { collection_list: { agent_url: 'https://lists.example', list_id: 'coll_v2' } };
    const pkg = String((created['packages'] as JsonObject[])[0]!['package_id']);
    const id = String(created['media_buy_id']);
    await call(
      'update_media_buy',
      { idempotency_key: key('swap'), media_buy_id: id, packages: [{ package_id: pkg, targeting_overlay: swapped }] },
      env,
    );
    const [after] = await buysOf(env, { media_buy_ids: [id] });
    expect((after!['packages'] as JsonObject[])[0]).toMatchObject({ targeting_overlay: swapped });
  });

  test('serving 3.0: status only (no media_buy_status)', async () => {
    const env = sandbox('3.0');
    const id = String((await call('create_media_buy', booking(), env))['media_buy_id']);
    const [read] = await buysOf(env, { media_buy_ids: [id] });
    expect(read).toMatchObject({ status: 'pending_creatives' });
    expect(read).not.toHaveProperty('media_buy_status');
  });
});
