// The reference seller's business rules, live over stdio and HTTP: version negotiation, unknown product
// ids, reversed flights, cursor pagination, and the bearer token of `--token` (HTTP).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseSellerArgs, UsageError } from '../../sellers/reference/options.ts';
import { startHttpSeller } from '../../sellers/launch.ts';
import { openSession, probeArguments, type SellerSession } from './client.ts';

type Json = Record<string, unknown>;
const sc = (r: Json): Json => r['structuredContent'] as Json;
const errorOf = (r: Json): Json => {
  expect(r['isError'], JSON.stringify(r)).toBe(true);
  return sc(r)['adcp_error'] as Json;
};

describe.for(['stdio', 'json'] as const)('the reference seller over %s', (mode) => {
  let session: SellerSession;
  beforeAll(async () => {
    session = await openSession(mode);
  }, 60_000);
  afterAll(() => session?.close());

  test('a pin to another major is refused with VERSION_UNSUPPORTED (correctable, supported versions in details), context echoed; major 3 is served', async () => {
    const context = { correlation_id: `${mode}-v99` };
    const refused = await session.call('get_products', { ...probeArguments('get_products', 'x'), adcp_major_version: 99, context });
    expect(errorOf(refused)).toMatchObject({
      code: 'VERSION_UNSUPPORTED',
      recovery: 'correctable',
      details: { supported_versions: ['3.0', '3.1'], supported_majors: [3] },
    });
    expect(sc(refused)['context']).toEqual(context);
    expect(errorOf(await session.call('get_adcp_capabilities', { adcp_version: '4.0' }))).toMatchObject({
      code: 'VERSION_UNSUPPORTED',
      field: 'adcp_version',
    });
    const served = await session.call('get_products', {
      ...probeArguments('get_products', 'x'),
      adcp_major_version: 3,
      adcp_version: '3.1',
    });
    expect(served['isError']).toBeUndefined();
    expect((sc(served)['products'] as unknown[]).length).toBe(4); // the whole catalog, the corpus fixtures included
  });

  test('create_media_buy refuses a product it never issued, a pricing option its product lacks, a flight that ends before it starts or starts in the past', async () => {
    const args = probeArguments('create_media_buy', `${mode}-rules`);
    const pkg = (args['packages'] as Json[])[0]!;
    const unknown = await session.call('create_media_buy', { ...args, packages: [{ ...pkg, product_id: 'never-issued' }] });
    expect(errorOf(unknown)).toMatchObject({ code: 'PRODUCT_NOT_FOUND', recovery: 'correctable', field: 'packages[0].product_id' });
    const option = await session.call('create_media_buy', {
      ...args,
      idempotency_key: `${mode}-rules-option-0123456789`,
      packages: [{ ...pkg, pricing_option_id: 'video_cpm_fixed' }],
    });
    expect(errorOf(option)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'packages[0].pricing_option_id' });
    const reversed = await session.call('create_media_buy', {
      ...args,
      idempotency_key: `${mode}-rules-dates-0123456789`,
      start_time: '2031-12-31T00:00:00Z',
      end_time: '2031-01-01T00:00:00Z',
    });
    expect(errorOf(reversed)).toMatchObject({ code: 'INVALID_REQUEST', recovery: 'correctable', field: 'end_time' });
    // create_media_buy.mdx "Flight date validation": a concrete start in the past → INVALID_REQUEST.
    const past = await session.call('create_media_buy', {
      ...args,
      idempotency_key: `${mode}-rules-past-0123456789`,
      start_time: new Date(Date.now() - 3600_000).toISOString(),
    });
    expect(errorOf(past)).toMatchObject({ code: 'INVALID_REQUEST', recovery: 'correctable', field: 'start_time' });
    // None of the refusals was cached: the same key now books.
    const booked = await session.call('create_media_buy', args);
    expect(typeof sc(booked)['media_buy_id']).toBe('string');
  });

  test('get_products pages with max_results and a cursor: every product once, the last page has_more false without a cursor', async () => {
    const base = probeArguments('get_products', 'pages');
    const all = ((sc(await session.call('get_products', base))['products'] as Json[]) ?? []).map((p) => p['product_id']);
    const first = sc(await session.call('get_products', { ...base, pagination: { max_results: 1 } }));
    expect(first['pagination']).toMatchObject({ has_more: true, total_count: all.length });
    const cursor = (first['pagination'] as Json)['cursor'];
    expect(typeof cursor).toBe('string');
    const second = sc(await session.call('get_products', { ...base, pagination: { max_results: all.length - 1, cursor } }));
    expect(second['pagination']).toEqual({ has_more: false, total_count: all.length });
    expect([...(first['products'] as Json[]), ...(second['products'] as Json[])].map((p) => p['product_id'])).toEqual(all);
    // A cursor of another task, or no cursor of ours at all, is refused.
    const foreign = sc(await session.call('list_creative_formats', { pagination: { max_results: 1 } }))['pagination'] as Json;
    expect(
      errorOf(await session.call('get_products', { ...base, pagination: { max_results: 1, cursor: foreign['cursor'] } })),
    ).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'pagination.cursor',
    });
  });
});

describe('--token (HTTP)', () => {
  const token = 'business-rules-token-0123';
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ url, close } = await startHttpSeller({ token }));
  }, 60_000);
  afterAll(() => close?.());

  const initialize = (headers: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
      }),
    });

  test('without Authorization: initialize is served (discovery is public); a protected call gets 401, a Bearer challenge, and AUTH_MISSING', async () => {
    const init = await initialize({});
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id')!;
    const post = (message: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'mcp-session-id': session,
        },
        body: JSON.stringify(message),
      });
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_creatives', arguments: {} } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="/);
    const body = (await res.json()) as { error: { code: number; data: { adcp_error: Json } } };
    expect(body.error.code).toBe(-32028);
    expect(body.error.data.adcp_error).toMatchObject({ code: 'AUTH_MISSING', recovery: 'correctable' });
  });

  test('a wrong token: 401 with error="invalid_token" and AUTH_INVALID; the right one is served', async () => {
    const wrong = await initialize({ authorization: 'Bearer not-the-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(((await wrong.json()) as { error: { data: { adcp_error: Json } } }).error.data.adcp_error).toMatchObject({
      code: 'AUTH_INVALID',
    });
    const right = await initialize({ authorization: `Bearer ${token}` });
    expect(right.status).toBe(200);
    expect(right.headers.get('mcp-session-id')).toBeTruthy();
    await right.body?.cancel();
  });

  test('the option is HTTP only and the token needs 8 safe characters', async () => {
    await expect(parseSellerArgs(['--transport', 'stdio', '--token', token])).rejects.toThrow(UsageError);
    await expect(parseSellerArgs(['--transport', 'http', '--token', 'short'])).rejects.toThrow(/8–512/);
    await expect(parseSellerArgs(['--transport', 'http', '--token', token])).resolves.toMatchObject({ token });
  });

  test('a token that begins with "-" (base64url tokens can) still starts the seller', async () => {
    const dashed = await startHttpSeller({ token: '-dash-first-token' });
    await dashed.close();
  });
});
