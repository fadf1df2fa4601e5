// The reference seller's Required tasks beyond booking (protocol/required-tasks.mdx): update_media_buy
// (pause → paused, resume → what still blocks the buy, cancel → canceled; stale revision → CONFLICT; cancel again →
// NOT_CANCELLABLE; any other update of a canceled buy → INVALID_STATE), provide_performance_feedback and
// activate_signal. In-process: each handler with a seller state of its own.
import { describe, expect, test } from 'vitest';
import { AdcpFailure } from '../../sellers/reference/adcp-error.ts';
import type { JsonObject } from '../../sellers/reference/json.ts';
import { SellerState } from '../../sellers/reference/state.ts';
import { toolSpecs, type ToolEnv } from '../../sellers/reference/tools.ts';
import { probeArguments } from './client.ts';

/** A task that answers at once (every one but create_media_buy, which awaits its ad server: see booked). */
const run = (tool: string, args: JsonObject, env: ToolEnv): JsonObject => {
  const body = toolSpecs.find((s) => s.name === tool)!.run(args, env);
  if (body instanceof Promise) throw new Error(`${tool} answers asynchronously: await it`);
  return body;
};

/** The AdCP error a call throws (fails the test when it succeeds). */
function refusal(call: () => unknown): AdcpFailure['body'] {
  try {
    call();
  } catch (err) {
    if (err instanceof AdcpFailure) return err.body;
    throw err;
  }
  throw new Error('expected an AdCP error, got a success');
}

async function booked(): Promise<{ env: ToolEnv; id: string }> {
  const env: ToolEnv = { state: new SellerState(), sandbox: true };
  const create = toolSpecs.find((s) => s.name === 'create_media_buy')!;
  const id = String((await create.run(probeArguments('create_media_buy', 'life') as JsonObject, env))['media_buy_id']);
  return { env, id };
}

let n = 0;
const update = (id: string, extra: JsonObject): JsonObject => ({
  idempotency_key: `life-update-${n++}-0123456789`,
  account: { brand: { domain: 'buyer.example' }, operator: 'buyer.example', sandbox: true },
  media_buy_id: id,
  ...extra,
});

describe('update_media_buy', () => {
  test('pause → paused, resume → pending_creatives (none assigned yet), cancel → canceled; each bumps revision; reads agree', async () => {
    const { env, id } = await booked();
    expect(run('update_media_buy', update(id, { paused: true, revision: 1 }), env)).toMatchObject({
      media_buy_status: 'paused',
      revision: 2,
    });
    // lifecycle.mdx: resuming clears the hold; with no creatives assigned the buy shows pending_creatives.
    expect(run('update_media_buy', update(id, { paused: false }), env)).toMatchObject({
      media_buy_status: 'pending_creatives',
      revision: 3,
    });
    const canceled = run('update_media_buy', update(id, { canceled: true, paused: true }), env);
    expect(canceled).toMatchObject({ media_buy_status: 'canceled', revision: 4 });
    // Full packages, never id stubs.
    expect((canceled['affected_packages'] as JsonObject[])[0]).toMatchObject({
      package_id: expect.any(String),
      product_id: 'sports_display_ros',
      budget: 5000,
    });
    const read = run('get_media_buys', { media_buy_ids: [id] }, env)['media_buys'] as JsonObject[];
    expect(read[0]).toMatchObject({ media_buy_id: id, status: 'canceled', revision: 4 });
  });

  test('refusals: stale revision, unknown buy or package, cancel again, update of a canceled buy', async () => {
    const { env, id } = await booked();
    expect(refusal(() => run('update_media_buy', update(id, { paused: true, revision: 7 }), env))).toMatchObject({
      code: 'CONFLICT',
      field: 'revision',
    });
    expect(refusal(() => run('update_media_buy', update('mb_nope', { paused: true }), env))).toMatchObject({ code: 'MEDIA_BUY_NOT_FOUND' });
    expect(refusal(() => run('update_media_buy', update(id, { packages: [{ package_id: 'pkg_nope', budget: 1 }] }), env))).toMatchObject({
      code: 'PACKAGE_NOT_FOUND',
      field: 'packages[0].package_id',
    });
    expect(refusal(() => run('update_media_buy', update(id, { end_time: '2000-01-01T00:00:00Z' }), env))).toMatchObject({
      code: 'INVALID_REQUEST',
      field: 'end_time',
    });
    run('update_media_buy', update(id, { canceled: true }), env);
    expect(refusal(() => run('update_media_buy', update(id, { canceled: true }), env))).toMatchObject({ code: 'NOT_CANCELLABLE' });
    expect(refusal(() => run('update_media_buy', update(id, { paused: false }), env))).toMatchObject({ code: 'INVALID_STATE' });
  });

  test('re-budgets a package (total follows); a replay returns the first answer, a refused key is not stored', async () => {
    const { env, id } = await booked();
    const pkg = String(
      ((run('get_media_buys', { media_buy_ids: [id] }, env)['media_buys'] as JsonObject[])[0]!['packages'] as JsonObject[])[0]![
        'package_id'
      ],
    );
    const args = update(id, { packages: [{ package_id: pkg, budget: 1200 }] });
    const first = run('update_media_buy', args, env);
    expect(first).toMatchObject({ revision: 2, total_budget: 1200, affected_packages: [{ package_id: pkg, budget: 1200 }] });
    expect(run('update_media_buy', args, env)).toMatchObject({ revision: 2, replayed: true });
    const refused = update(id, { revision: 99, paused: true });
    expect(refusal(() => run('update_media_buy', refused, env)).code).toBe('CONFLICT');
    expect(run('update_media_buy', { ...refused, revision: 2 }, env)).toMatchObject({ media_buy_status: 'paused', revision: 3 });
  });

  test('serving 3.0 leaves media_buy_status, currency and total_budget out', async () => {
    const { env, id } = await booked();
    const body = run('update_media_buy', update(id, { paused: true }), { ...env, release: '3.0' });
    expect(body).toMatchObject({ media_buy_id: id, revision: 2 });
    for (const k of ['media_buy_status', 'currency', 'total_budget']) expect(body).not.toHaveProperty(k);
  });
});

describe('provide_performance_feedback and activate_signal', () => {
  test('feedback on a booked buy succeeds; on an unknown one → MEDIA_BUY_NOT_FOUND', async () => {
    const { env, id } = await booked();
    const args = { ...probeArguments('provide_performance_feedback', 'life-fb'), media_buy_id: id } as JsonObject;
    expect(run('provide_performance_feedback', args, env)).toEqual({ success: true, sandbox: true });
    const unknown = { ...args, idempotency_key: 'life-fb-unknown-0123456789', media_buy_id: 'mb_nope' };
    expect(refusal(() => run('provide_performance_feedback', unknown, env)).code).toBe('MEDIA_BUY_NOT_FOUND');
  });

  test('activate: live deployments keyed by segment id; deactivate: not live; unknown signal → REFERENCE_NOT_FOUND', () => {
    const env: ToolEnv = { state: new SellerState(), sandbox: true };
    const args = probeArguments('activate_signal', 'life-act') as JsonObject;
    expect(run('activate_signal', args, env)['deployments']).toEqual([
      {
        type: 'platform',
        platform: 'the-trade-desk',
        is_live: true,
        activation_key: { type: 'segment_id', segment_id: 'rs_outdoor_enthusiasts' },
        deployed_at: expect.any(String),
      },
    ]);
    const off = {
      ...args,
      idempotency_key: 'life-act-off-0123456789',
      action: 'deactivate',
      destinations: [{ type: 'agent', agent_url: 'https://dsp.example/mcp' }],
    };
    expect(run('activate_signal', off, env)['deployments']).toEqual([
      { type: 'agent', agent_url: 'https://dsp.example/mcp', is_live: false },
    ]);
    const unknown = { ...args, idempotency_key: 'life-act-unknown-0123456789', signal_agent_segment_id: 'nope' };
    expect(refusal(() => run('activate_signal', unknown, env))).toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
      field: 'signal_agent_segment_id',
    });
  });

  test('a read-only seller refuses all three and declares the creative protocol only', () => {
    const env: ToolEnv = { state: new SellerState(), sandbox: false };
    for (const tool of ['update_media_buy', 'provide_performance_feedback', 'activate_signal'])
      expect(refusal(() => run(tool, probeArguments(tool, 'life-ro') as JsonObject, env)).code).toBe('UNSUPPORTED_FEATURE');
    expect(run('get_adcp_capabilities', {}, env)['supported_protocols']).toEqual(['creative']);
    expect(run('get_adcp_capabilities', {}, { ...env, sandbox: true })['supported_protocols']).toEqual([
      'media_buy',
      'signals',
      'creative',
    ]);
  });
});
