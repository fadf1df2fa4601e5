// The reference seller's proposals (get_products brief and refine, create_media_buy proposal mode),
// measurement-terms policy, list_creatives filters and get_signals selection. In-process.
import { describe, expect, test } from 'vitest';
import { AdcpFailure } from '../../sellers/reference/adcp-error.ts';
import { payloadOf } from '../../sellers/reference/envelope.ts';
import type { JsonObject } from '../../sellers/reference/json.ts';
import { HOLD_SECONDS } from '../../sellers/reference/proposals.ts';
import { SellerState } from '../../sellers/reference/state.ts';
import { toolSpecs, type Release, type ToolEnv } from '../../sellers/reference/tools.ts';
import { loadTree, responseErrors, sharedPresent, undeclaredFields } from './adcp-schemas.ts';
import { probeArguments } from './client.ts';

const call = async (tool: string, args: JsonObject, env: ToolEnv): Promise<JsonObject> =>
  toolSpecs.find((s) => s.name === tool)!.run(args, env);

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
const sandbox = (release?: Release): ToolEnv => ({ state: new SellerState(), sandbox: true, ...(release ? { release } : {}) });
const proposalBooking = (proposal_id: string, extra: JsonObject = {}): JsonObject => {
  const { packages: _packages, ...base } = probeArguments('create_media_buy', `prop-${n++}`) as JsonObject;
  return { ...base, proposal_id, total_budget: { amount: 10000, currency: 'USD' }, ...extra };
};
const refineArgs = (refine: JsonObject[]): JsonObject => ({ buying_mode: 'refine', refine });

describe('proposals', () => {
  test('a brief gets a ready-to-buy plan and a guaranteed draft; wholesale gets none', async () => {
    const env = sandbox();
    const brief = await call('get_products', probeArguments('get_products', 'p') as JsonObject, env);
    const proposals = brief['proposals'] as JsonObject[];
    expect(proposals.map((p) => [p['proposal_id'], p['proposal_status']])).toEqual([
      ['rs_balanced_reach', undefined],
      ['rs_premium_video', 'draft'],
    ]);
    for (const p of proposals) {
      const total = (p['allocations'] as JsonObject[]).reduce((sum, a) => sum + Number(a['allocation_percentage']), 0);
      expect(total).toBe(100);
    }
    expect(await call('get_products', { buying_mode: 'wholesale' }, env)).not.toHaveProperty('proposals');
  });

  test('refine: every entry acknowledged in order; finalize makes a committed hold; omit drops; unknown ids refused', async () => {
    const env = sandbox();
    const before = Date.now();
    const answer = await call(
      'get_products',
      refineArgs([
        { scope: 'proposal', proposal_id: 'rs_premium_video', action: 'finalize' },
        { scope: 'proposal', proposal_id: 'rs_balanced_reach', ask: 'more video' },
        { scope: 'product', product_id: 'test-product', action: 'omit' },
        { scope: 'request', ask: 'frequency cap 3 per day' },
      ]),
      env,
    );
    expect(answer['refinement_applied']).toEqual([
      { scope: 'proposal', proposal_id: 'rs_premium_video', status: 'applied' },
      { scope: 'proposal', proposal_id: 'rs_balanced_reach', status: 'unable', notes: expect.any(String) },
      { scope: 'product', product_id: 'test-product', status: 'applied' },
      { scope: 'request', status: 'unable', notes: expect.any(String) },
    ]);
    const [video] = answer['proposals'] as JsonObject[];
    expect(video).toMatchObject({ proposal_id: 'rs_premium_video', proposal_status: 'committed' });
    expect(Date.parse(String(video!['expires_at'])) - before).toBeGreaterThanOrEqual(HOLD_SECONDS * 1000 - 1000);
    expect((answer['products'] as JsonObject[]).map((p) => p['product_id'])).not.toContain('test-product');
    expect(await refusal('get_products', refineArgs([{ scope: 'proposal', proposal_id: 'nope' }]), env)).toMatchObject({
      code: 'PROPOSAL_NOT_FOUND',
      field: 'refine[0].proposal_id',
    });
    // 3.0's enum has no PROPOSAL_NOT_FOUND.
    expect(await refusal('get_products', refineArgs([{ scope: 'proposal', proposal_id: 'nope' }]), sandbox('3.0'))).toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
    });
    expect(await refusal('get_products', refineArgs([{ scope: 'product', product_id: 'nope' }]), env)).toMatchObject({
      code: 'PRODUCT_NOT_FOUND',
      field: 'refine[0].product_id',
    });
  });

  test('create_media_buy executes a ready or committed proposal into its allocations; a draft, an unknown id or both modes are refused', async () => {
    const env = sandbox();
    const ready = await call('create_media_buy', proposalBooking('rs_balanced_reach'), env);
    expect((ready['packages'] as JsonObject[]).map((p) => [p['product_id'], p['budget']])).toEqual([
      ['sports_display_ros', 7000],
      ['test-product', 3000],
    ]);
    expect(ready).toMatchObject({ total_budget: 10000 });
    expect(await refusal('create_media_buy', proposalBooking('rs_premium_video'), env)).toMatchObject({
      code: 'PROPOSAL_NOT_COMMITTED',
      field: 'proposal_id',
    });
    expect(await refusal('create_media_buy', proposalBooking('nope'), env)).toMatchObject({ code: 'PROPOSAL_NOT_FOUND' });
    const both = proposalBooking('rs_balanced_reach', { packages: probeArguments('create_media_buy', 'x')['packages'] as JsonObject[] });
    expect(await refusal('create_media_buy', both, env)).toMatchObject({ code: 'INVALID_REQUEST', field: 'packages' });
    await call('get_products', refineArgs([{ scope: 'proposal', proposal_id: 'rs_premium_video', action: 'finalize' }]), env);
    const committed = await call('create_media_buy', proposalBooking('rs_premium_video'), env);
    expect(committed['packages']).toEqual([expect.objectContaining({ product_id: 'sports_video_premium', budget: 10000 })]);
  });

  test('supports_proposals is declared at 3.1 only (3.0 capabilities have no such field)', async () => {
    const caps = (release: Release) => call('get_adcp_capabilities', {}, sandbox(release));
    expect((await caps('3.1'))['media_buy']).toMatchObject({ supports_proposals: true });
    expect((await caps('3.0'))['media_buy']).not.toHaveProperty('supports_proposals');
  });
});

describe('measurement terms (create_media_buy.mdx package measurement_terms)', () => {
  const withTerms = (billing: JsonObject): JsonObject => {
    const base = probeArguments('create_media_buy', `terms-${n++}`) as JsonObject;
    const packages = (base['packages'] as JsonObject[]).map((p) => ({ ...p, measurement_terms: { billing_measurement: billing } }));
    return { ...base, packages };
  };

  test('terms past the seller policy → TERMS_REJECTED naming the term and what is accepted; workable terms book and are echoed', async () => {
    const env = sandbox();
    const tight = await refusal('create_media_buy', withTerms({ measurement_window: 'c7', max_variance_percent: 0 }), env);
    expect(tight).toMatchObject({
      code: 'TERMS_REJECTED',
      recovery: 'correctable',
      field: 'packages[0].measurement_terms.billing_measurement.max_variance_percent',
      details: { rejected_term: 'billing_measurement.max_variance_percent', accepted: { min_max_variance_percent: 10 } },
    });
    expect(await refusal('create_media_buy', withTerms({ measurement_window: 'c30', max_variance_percent: 10 }), env)).toMatchObject({
      code: 'TERMS_REJECTED',
      field: 'packages[0].measurement_terms.billing_measurement.measurement_window',
    });
    const ok = await call('create_media_buy', withTerms({ measurement_window: 'c7', max_variance_percent: 10 }), env);
    expect((ok['packages'] as JsonObject[])[0]).toMatchObject({ measurement_terms: { billing_measurement: { max_variance_percent: 10 } } });
  });

  test('a package refusal comes before the flight check: terms on a past flight → TERMS_REJECTED', async () => {
    const args = { ...withTerms({ max_variance_percent: 0 }), start_time: '2020-01-01T00:00:00Z', end_time: '2020-02-01T00:00:00Z' };
    expect((await refusal('create_media_buy', args, sandbox())).code).toBe('TERMS_REJECTED');
  });
});

describe('list_creatives filters (core/creative-filters.json)', () => {
  test('creative_ids, statuses, name_contains and format_ids narrow the library; total_matching counts the filtered list', async () => {
    const env = sandbox();
    const sync = probeArguments('sync_creatives', 'flt') as JsonObject;
    const [creative] = sync['creatives'] as JsonObject[];
    const creatives = [
      { ...creative, creative_id: 'cr_a', name: 'Summer banner' },
      { ...creative, creative_id: 'cr_b', name: 'Winter banner' },
      {
        ...creative,
        creative_id: 'cr_c',
        name: 'Spot',
        format_id: { agent_url: 'https://creative.adcontextprotocol.org', id: 'video_standard' },
      },
    ];
    await call('sync_creatives', { ...sync, creatives }, env);
    const ids = async (filters: JsonObject) => {
      const answer = await call('list_creatives', { filters }, env);
      const list = (answer['creatives'] as JsonObject[]).map((c) => c['creative_id']);
      expect(answer['query_summary']).toMatchObject({ total_matching: list.length });
      return list;
    };
    expect(await ids({ creative_ids: ['cr_b'] })).toEqual(['cr_b']);
    expect(await ids({ name_contains: 'BANNER' })).toEqual(['cr_a', 'cr_b']);
    expect(await ids({ format_ids: [{ agent_url: 'https://creative.adcontextprotocol.org', id: 'video_standard' }] })).toEqual(['cr_c']);
    expect(await ids({ statuses: ['rejected'] })).toEqual([]);
    expect(await ids({})).toEqual(['cr_a', 'cr_b', 'cr_c']);
  });
});

describe('get_signals selection', () => {
  const signalsOf = async (args: JsonObject, release?: Release) =>
    (await call('get_signals', args, sandbox(release)))['signals'] as JsonObject[];

  test('ranked by the spec: a marketplace signal traces to its data provider; owned signals to this agent', async () => {
    const [ev] = await signalsOf({ signal_spec: 'In-market EV buyers with high purchase propensity' });
    expect(ev).toMatchObject({
      signal_agent_segment_id: 'trident_likely_ev_buyers',
      signal_type: 'marketplace',
      signal_id: { source: 'catalog', data_provider_domain: 'tridentauto.example', id: 'likely_ev_buyers' },
      signal_ref: { scope: 'data_provider', data_provider_domain: 'tridentauto.example', signal_id: 'likely_ev_buyers' },
    });
    const [ltv] = await signalsOf({ signal_spec: 'High-value customers with loyalty program data' });
    expect(ltv).toMatchObject({ signal_agent_segment_id: 'prism_high_ltv', signal_id: { source: 'agent' } });
  });

  test('signal_ids returns exactly the named signals; filters.max_cpm drops the dearer ones', async () => {
    const named = await signalsOf({
      signal_ids: [{ source: 'catalog', data_provider_domain: 'tridentauto.example', id: 'likely_ev_buyers' }],
    });
    expect(named.map((s) => s['signal_agent_segment_id'])).toEqual(['trident_likely_ev_buyers']);
    expect(await signalsOf({ signal_ids: [{ source: 'catalog', data_provider_domain: 'other.example', id: 'likely_ev_buyers' }] })).toEqual(
      [],
    );
    const cheap = await signalsOf({ signal_spec: 'anything', filters: { max_cpm: 3 } });
    expect(cheap.map((s) => s['signal_agent_segment_id'])).not.toContain('prism_cart_abandoner');
    expect(cheap.map((s) => s['signal_agent_segment_id'])).toContain('rs_outdoor_enthusiasts');
  });

  test('a seeded owned segment activates on a platform with its activation key', async () => {
    const args = { ...(probeArguments('activate_signal', 'seeded') as JsonObject), signal_agent_segment_id: 'prism_high_ltv' };
    expect((await call('activate_signal', args, sandbox()))['deployments']).toEqual([
      expect.objectContaining({ type: 'platform', is_live: true, activation_key: { type: 'segment_id', segment_id: 'prism_high_ltv' } }),
    ]);
  });
});

describe('the new answers validate at the release served, and a 3.0 answer declares nothing 3.0 lacks', () => {
  /** Top-level envelope fields the 3.0 response schemas do not list (as in releases.test.ts). */
  const ENVELOPE_30 = new Set(['/status']);

  async function answers(release: Release): Promise<Array<[string, JsonObject]>> {
    const env = sandbox(release);
    const sync = probeArguments('sync_creatives', `val-${release}`) as JsonObject;
    await call('sync_creatives', sync, env);
    const creativeId = String((sync['creatives'] as JsonObject[])[0]!['creative_id']);
    const base = probeArguments('create_media_buy', `val-${release}`) as JsonObject;
    const packages = (base['packages'] as JsonObject[]).map((p) => ({
      ...p,
      targeting_overlay: { property_list: { agent_url: 'https://lists.example', list_id: 'allow_v1' } },
      measurement_terms: { billing_measurement: { vendor: { domain: 'm.example' }, measurement_window: 'c7', max_variance_percent: 10 } },
      creative_assignments: [{ creative_id: creativeId }],
    }));
    const created = await call('create_media_buy', { ...base, packages }, env);
    const refined = await call(
      'get_products',
      refineArgs([
        { scope: 'proposal', proposal_id: 'rs_premium_video', action: 'finalize' },
        { scope: 'request', ask: 'x' },
      ]),
      env,
    );
    const fromProposal = await call('create_media_buy', proposalBooking('rs_premium_video'), env);
    return [
      ['get_products', await call('get_products', probeArguments('get_products', 'v') as JsonObject, env)],
      ['get_products', refined],
      ['create_media_buy', created],
      ['create_media_buy', fromProposal],
      ['get_media_buys', await call('get_media_buys', { media_buy_ids: [String(created['media_buy_id'])] }, env)],
      ['get_signals', await call('get_signals', { signal_spec: 'EV buyers' }, env)],
      ['list_creatives', await call('list_creatives', { filters: { creative_ids: [creativeId] } }, env)],
    ];
  }

  test('3.0', async () => {
    for (const [tool, body] of await answers('3.0')) {
      const payload = payloadOf(body, undefined);
      expect(responseErrors(loadTree('3.0'), tool, payload), tool).toEqual([]);
      expect(
        undeclaredFields(loadTree('3.0'), tool, payload).filter((p) => !ENVELOPE_30.has(p)),
        tool,
      ).toEqual([]);
    }
  });

  test.skipIf(!sharedPresent)('3.1.19 (../shared)', async () => {
    for (const [tool, body] of await answers('3.1'))
      expect(responseErrors(loadTree('3.1.19'), tool, payloadOf(body, undefined)), tool).toEqual([]);
  });
});
