// The AdCP tasks this seller serves. Each handler returns the task body (the flat AdCP payload
// without the envelope fields `status` / `context`, which envelope.ts adds) or throws AdcpFailure.
import { AdcpFailure } from './adcp-error.ts';
import * as catalog from './catalog.ts';
import { cloneJson, isPlainObject, type JsonObject } from './json.ts';
import { page } from './pagination.ts';
import { REPLAY_TTL_SECONDS, type SellerState, objectField, stringField } from './state.ts';
import { SUPPORTED_MAJORS, SUPPORTED_VERSIONS } from './version.ts';

export interface ToolEnv {
  state: SellerState;
  sandbox: boolean;
}

type Schema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  description: string;
  /** Mutating tasks are listed only by a sandbox seller and are idempotent by `idempotency_key`. */
  mutating: boolean;
  /**
   * The text item: `mirror` = the payload as JSON (text-only clients get the data), `summary` = one
   * readable sentence. Chosen per tool (discovery reads mirror, the rest summarize) so every run sees both.
   */
  text: 'mirror' | 'summary';
  /**
   * Output declared as a schema with an id (zod `.meta({id})`, seed 004): advertised as a `$ref` into
   * `$defs` (root shape) or wrapped in `result` (legacy shape). `get_adcp_capabilities` is declared as
   * a plain object schema, so a run sees both kinds of tool.
   */
  metaId: boolean;
  /** Loose property types for the advertised outputSchema (every real payload validates). */
  outputProperties: Record<string, Schema>;
  run(args: JsonObject, env: ToolEnv): JsonObject;
  summarize(body: JsonObject): string;
}

const count = (body: JsonObject, key: string): number => {
  const v = body[key];
  return Array.isArray(v) ? v.length : 0;
};

const wanted = (args: JsonObject, key: string): Set<string> | undefined => {
  const v = args[key];
  return Array.isArray(v) ? new Set(v.filter((x): x is string => typeof x === 'string')) : undefined;
};

function capabilities(_args: JsonObject, env: ToolEnv): JsonObject {
  return {
    adcp: {
      major_versions: [...SUPPORTED_MAJORS],
      supported_versions: [...SUPPORTED_VERSIONS],
      idempotency: { supported: true, replay_ttl_seconds: REPLAY_TTL_SECONDS },
    },
    supported_protocols: ['media_buy', 'signals', 'creative'],
    account: { supported_billing: ['operator'], required_for_products: false, sandbox: env.sandbox },
    media_buy: { supported_pricing_models: ['cpm'] },
  };
}

function getProducts(args: JsonObject): JsonObject {
  const brief = (stringField(args, 'brief') ?? '').toLowerCase();
  // A toy relevance rule: a brief that mentions video lists the video product first.
  const products = cloneJson(catalog.products);
  if (brief.includes('video')) products.reverse();
  const { items, pagination } = page('get_products', args, products);
  return { products: items, cache_scope: 'public', ...(pagination ? { pagination } : {}) };
}

function listCreativeFormats(args: JsonObject): JsonObject {
  const ids = Array.isArray(args['format_ids'])
    ? new Set(args['format_ids'].map((f) => (isPlainObject(f) ? f['id'] : undefined)))
    : undefined;
  const { items, pagination } = page(
    'list_creative_formats',
    args,
    cloneJson(catalog.formats.filter((f) => !ids || ids.has(f.format_id.id))),
  );
  return { formats: items, ...(pagination ? { pagination } : {}) };
}

function listCreatives(args: JsonObject, env: ToolEnv): JsonObject {
  const all = cloneJson([...env.state.creatives.values()]);
  const { items, pagination } = page('list_creatives', args, all);
  return {
    query_summary: { total_matching: all.length, returned: items.length },
    pagination: pagination ?? { has_more: false },
    creatives: items,
  };
}

function getMediaBuys(args: JsonObject, env: ToolEnv): JsonObject {
  const ids = wanted(args, 'media_buy_ids');
  const buys = [...env.state.mediaBuys.values()].filter((b) => !ids || ids.has(b.media_buy_id));
  const { items, pagination } = page('get_media_buys', args, cloneJson(buys));
  return { media_buys: items, ...(pagination ? { pagination } : {}) };
}

function getMediaBuyDelivery(args: JsonObject, env: ToolEnv): JsonObject {
  const ids = wanted(args, 'media_buy_ids');
  const buys = [...env.state.mediaBuys.values()].filter((b) => !ids || ids.has(b.media_buy_id));
  const now = new Date();
  const start = new Date(now.getTime() - 7 * 24 * 3600 * 1000);
  return {
    reporting_period: { start: start.toISOString(), end: now.toISOString() },
    currency: catalog.CURRENCY,
    // Sandbox buys have not started: zero delivery, reported honestly.
    media_buy_deliveries: buys.map((b) => ({
      media_buy_id: b.media_buy_id,
      status: b.status,
      totals: { impressions: 0, spend: 0 },
      by_package: b.packages.map((p) => ({
        package_id: p.package_id,
        impressions: 0,
        spend: 0,
        pricing_model: 'cpm',
        rate: rateOf(p.product_id, p.pricing_option_id),
        currency: b.currency,
      })),
    })),
  };
}

/** The CPM a package books at: the option's fixed price, else its floor (0 for sandbox-only products). */
function rateOf(productId: string, pricingOptionId: string): number {
  const option = catalog.products
    .find((p) => p.product_id === productId)
    ?.pricing_options.find((o) => o.pricing_option_id === pricingOptionId) as { fixed_price?: number; floor_price?: number } | undefined;
  return option?.fixed_price ?? option?.floor_price ?? 0;
}

function getSignals(args: JsonObject): JsonObject {
  const { items, pagination } = page('get_signals', args, cloneJson(catalog.signals));
  return { signals: items, cache_scope: 'public', ...(pagination ? { pagination } : {}) };
}

function requireSandbox(env: ToolEnv, tool: string): void {
  if (!env.sandbox) {
    throw new AdcpFailure({
      code: 'UNSUPPORTED_FEATURE',
      message: `${tool} is available on sandbox accounts only`,
      recovery: 'terminal',
    });
  }
}

/**
 * The key was used for another request. Nothing in the error says how the requests differ (no `field`,
 * no details): a caller holding a stolen key must not learn the earlier request from the refusal.
 */
function idempotencyConflict(tool: string): AdcpFailure {
  return new AdcpFailure({
    code: 'IDEMPOTENCY_CONFLICT',
    message: `idempotency_key was already used for a different ${tool} request`,
    recovery: 'correctable',
    suggestion: 'Use a fresh idempotency_key (UUID v4) for a new request, or resend the original request unchanged.',
  });
}

/** What a create_media_buy must name: products this seller sells, their pricing options, a flight that ends after it starts. */
function checkBooking(args: JsonObject): void {
  const packages = (Array.isArray(args['packages']) ? args['packages'] : []).filter(isPlainObject);
  for (const [i, p] of packages.entries()) {
    const product = catalog.products.find((c) => c.product_id === p['product_id']);
    if (!product) {
      throw new AdcpFailure({
        code: 'PRODUCT_NOT_FOUND',
        message: 'A package names a product this seller does not offer',
        recovery: 'correctable',
        field: `packages[${i}].product_id`,
        suggestion: 'Use a product_id from get_products.',
      });
    }
    if (!product.pricing_options.some((o) => o.pricing_option_id === p['pricing_option_id'])) {
      throw new AdcpFailure({
        code: 'VALIDATION_ERROR',
        message: 'A package names a pricing option its product does not offer',
        recovery: 'correctable',
        field: `packages[${i}].pricing_option_id`,
        suggestion: "Use a pricing_option_id from the product's pricing_options in get_products.",
      });
    }
  }
  const start = args['start_time'] === 'asap' ? Date.now() : Date.parse(String(args['start_time']));
  const end = Date.parse(String(args['end_time']));
  if (Number.isFinite(start) && Number.isFinite(end) && end <= start) {
    throw new AdcpFailure({
      code: 'VALIDATION_ERROR',
      message: 'end_time must be after start_time',
      recovery: 'correctable',
      field: 'end_time',
      suggestion: 'Send a flight whose end_time is later than its start_time.',
    });
  }
}

function createMediaBuy(args: JsonObject, env: ToolEnv): JsonObject {
  requireSandbox(env, 'create_media_buy');
  // Refusals come before the idempotency cache: only successful bookings are remembered.
  checkBooking(args);
  const outcome = env.state.idempotent('create_media_buy', stringField(args, 'idempotency_key') ?? '', args, () => {
    const packages = (Array.isArray(args['packages']) ? args['packages'] : []).filter(isPlainObject).map((p) => ({
      package_id: env.state.newId('pkg'),
      product_id: String(p['product_id']),
      pricing_option_id: String(p['pricing_option_id']),
      budget: Number(p['budget']),
    }));
    const record = {
      media_buy_id: env.state.newId('mb'),
      status: 'pending_creatives' as const,
      currency: catalog.CURRENCY,
      total_budget: packages.reduce((sum, p) => sum + p.budget, 0),
      start_time: String(args['start_time']),
      end_time: String(args['end_time']),
      confirmed_at: new Date().toISOString(),
      revision: 1,
      packages,
    };
    env.state.remember(env.state.mediaBuys, record.media_buy_id, record);
    // `status` is the envelope's task status on the flat MCP wire; the buy's own state travels as
    // media_buy_status (3.1; AdCP 3.0 reads it as an extra field).
    return {
      media_buy_id: record.media_buy_id,
      media_buy_status: record.status,
      confirmed_at: record.confirmed_at,
      revision: record.revision,
      currency: record.currency,
      total_budget: record.total_budget,
      packages: cloneJson(packages),
      sandbox: true,
    };
  });
  if ('conflict' in outcome) throw idempotencyConflict('create_media_buy');
  return outcome.replayed ? { ...cloneJson(outcome.body), replayed: true } : cloneJson(outcome.body);
}

function syncCreatives(args: JsonObject, env: ToolEnv): JsonObject {
  requireSandbox(env, 'sync_creatives');
  const dryRun = args['dry_run'] === true;
  const outcome = env.state.idempotent('sync_creatives', stringField(args, 'idempotency_key') ?? '', args, () => {
    const results = (Array.isArray(args['creatives']) ? args['creatives'] : []).filter(isPlainObject).map((c) => {
      const id = String(c['creative_id']);
      const known = env.state.creatives.has(id);
      if (!dryRun) {
        const now = new Date().toISOString();
        const format = objectField(c, 'format_id') ?? {};
        env.state.remember(env.state.creatives, id, {
          creative_id: id,
          name: stringField(c, 'name') ?? id,
          format_id: { agent_url: String(format['agent_url']), id: String(format['id']) },
          status: 'approved',
          created_date: env.state.creatives.get(id)?.created_date ?? now,
          updated_date: now,
        });
      }
      return { creative_id: id, action: known ? 'updated' : 'created', ...(dryRun ? {} : { status: 'approved' }) };
    });
    return { dry_run: dryRun, creatives: results, sandbox: true };
  });
  if ('conflict' in outcome) throw idempotencyConflict('sync_creatives');
  return outcome.replayed ? { ...cloneJson(outcome.body), replayed: true } : cloneJson(outcome.body);
}

const envelopeProps: Record<string, Schema> = {
  status: { type: 'string' },
  context: { type: 'object' },
  ext: { type: 'object' },
};

export const toolSpecs: readonly ToolSpec[] = [
  {
    name: 'get_adcp_capabilities',
    description: 'AdCP protocol discovery: supported versions, protocols, idempotency and account model.',
    mutating: false,
    text: 'mirror',
    metaId: false,
    outputProperties: { ...envelopeProps, adcp: { type: 'object' }, supported_protocols: { type: 'array' } },
    run: capabilities,
    summarize: () => 'AdCP capabilities of the reference seller.',
  },
  {
    name: 'get_products',
    description: 'Discover advertising products for a brief (buying_mode brief | wholesale | refine).',
    mutating: false,
    text: 'mirror',
    metaId: true,
    outputProperties: { ...envelopeProps, products: { type: 'array' } },
    run: getProducts,
    summarize: (b) => `Found ${count(b, 'products')} products matching your brief.`,
  },
  {
    name: 'list_creative_formats',
    description: 'List the creative formats this seller accepts.',
    mutating: false,
    text: 'mirror',
    metaId: true,
    outputProperties: { ...envelopeProps, formats: { type: 'array' } },
    run: listCreativeFormats,
    summarize: (b) => `${count(b, 'formats')} creative formats.`,
  },
  {
    name: 'list_creatives',
    description: "List the creatives in the buyer's library on this seller.",
    mutating: false,
    text: 'summary',
    metaId: true,
    outputProperties: { ...envelopeProps, creatives: { type: 'array' } },
    run: listCreatives,
    summarize: (b) => `${count(b, 'creatives')} creatives in the library.`,
  },
  {
    name: 'get_media_buys',
    description: 'Read media buys booked on this seller.',
    mutating: false,
    text: 'mirror',
    metaId: true,
    outputProperties: { ...envelopeProps, media_buys: { type: 'array' } },
    run: getMediaBuys,
    summarize: (b) => `${count(b, 'media_buys')} media buys.`,
  },
  {
    name: 'get_media_buy_delivery',
    description: 'Delivery metrics of media buys for a reporting period.',
    mutating: false,
    text: 'summary',
    metaId: true,
    outputProperties: { ...envelopeProps, media_buy_deliveries: { type: 'array' } },
    run: getMediaBuyDelivery,
    summarize: (b) => `Delivery for ${count(b, 'media_buy_deliveries')} media buys.`,
  },
  {
    name: 'get_signals',
    description: 'Discover audience signals for a signal spec.',
    mutating: false,
    text: 'mirror',
    metaId: true,
    outputProperties: { ...envelopeProps, signals: { type: 'array' } },
    run: getSignals,
    summarize: (b) => `Found ${count(b, 'signals')} signals.`,
  },
  {
    name: 'create_media_buy',
    description: 'Book a media buy (sandbox accounts only; idempotent by idempotency_key).',
    mutating: true,
    text: 'mirror',
    metaId: true,
    outputProperties: { ...envelopeProps, media_buy_id: { type: 'string' }, packages: { type: 'array' } },
    run: createMediaBuy,
    summarize: (b) => `Media buy ${String(b['media_buy_id'])} created.`,
  },
  {
    name: 'sync_creatives',
    description: 'Upload or update creatives (sandbox accounts only; dry_run previews; idempotent by idempotency_key).',
    mutating: true,
    text: 'summary',
    metaId: true,
    outputProperties: { ...envelopeProps, creatives: { type: 'array' } },
    run: syncCreatives,
    summarize: (b) => `${count(b, 'creatives')} creatives ${b['dry_run'] === true ? 'checked (dry run)' : 'synced'}.`,
  },
];
