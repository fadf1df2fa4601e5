// The AdCP tasks this seller serves. Each handler returns the task body (the flat AdCP payload
// without the envelope fields `status` / `context`, which envelope.ts adds) or throws AdcpFailure.
import { AdcpFailure } from './adcp-error.ts';
import * as catalog from './catalog.ts';
import { cloneJson, isPlainObject, type JsonObject } from './json.ts';
import {
  assignFromSync,
  assignedCreatives,
  buyView,
  checkFlightOrder,
  checkMeasurementTerms,
  checkNewFlight,
  packageAnswer,
  selectBuys,
  statusOf,
  type PackageRecord,
} from './media-buys.ts';
import { page } from './pagination.ts';
import { briefProposals, proposalPackages, refine } from './proposals.ts';
import { selectSignals } from './signals.ts';
import { payloadOf } from './envelope.ts';
import { pollTask, POLLING_TOOLS, submittedBody, tasksOf } from './tasks.ts';
import { forcedAnswer, runTestController, takeForcedArm, TEST_CONTROLLER_TOOL, testControllerInputSchema } from './test-controller.ts';
import {
  REPLAY_TTL_SECONDS,
  type CreativeRecord,
  type IdempotentOutcome,
  type MediaBuyRecord,
  type SellerState,
  objectField,
  stringField,
} from './state.ts';
import { DEFAULT_RELEASE, SUPPORTED_MAJORS, SUPPORTED_VERSIONS, type ServedRelease } from './version.ts';

/** An AdCP release this seller serves (release precision, as on the wire). */
export type Release = ServedRelease;

export interface ToolEnv {
  state: SellerState;
  sandbox: boolean;
  /** `--require-account`: every call that takes an account must name this one (capabilities say so). */
  requireAccount?: string;
  /** `--brand-json-url`: capabilities name it as `identity.brand_json_url` (where this seller's keys are published). */
  brandJsonUrl?: string;
  /**
   * The release served for this call after version negotiation (version.ts). Payloads follow its
   * response schemas: 3.1-only fields are left out when serving 3.0. Absent → DEFAULT_RELEASE (3.1).
   */
  release?: Release;
}

/** The release a call is served at. */
export const releaseOf = (env: ToolEnv): Release => env.release ?? DEFAULT_RELEASE;

/**
 * Fields AdCP 3.1 added to a task's success body (absent from the 3.0 response schemas: 3.0.26 and the
 * 3.0 tree inside @adcp/sdk). Serving 3.0 leaves them out, so a 3.0 client gets the 3.0 shape; the
 * migration guide: "existing 3.0-conformant agents can remain on "3.0" without changing request or
 * response shapes" (https://adcontextprotocol.org/docs/reference/migration/3-0-to-3-1).
 */
export const RELEASE_3_1_FIELDS = {
  /** Discovery answers: the cache layer of the rate card (required in 3.1). */
  get_products: ['cache_scope'],
  get_signals: ['cache_scope'],
  /** The buy's lifecycle state (3.1 SHOULD, replacing the body `status` that collides with the task status), and its money. */
  create_media_buy: ['media_buy_status', 'currency', 'total_budget'],
  update_media_buy: ['media_buy_status', 'currency', 'total_budget'],
} as const satisfies Record<string, readonly string[]>;

/** Per signal: `signal_ref` (3.1's canonical signal identity; 3.0 knows `signal_id` only). */
export const RELEASE_3_1_SIGNAL_FIELDS = ['signal_ref'] as const;

/** The body as the release served shapes it: a 3.0 call gets no field 3.1 added. */
function atRelease(tool: keyof typeof RELEASE_3_1_FIELDS, body: JsonObject, env: ToolEnv): JsonObject {
  if (releaseOf(env) !== '3.0') return body;
  const out: JsonObject = {};
  const drop = new Set<string>(RELEASE_3_1_FIELDS[tool]);
  for (const [k, v] of Object.entries(body)) if (!drop.has(k)) out[k] = v;
  return out;
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
   * Output declared as a schema with an id (zod `.meta({id})`; see the check schema.legacy-wrapper): advertised as a `$ref` into
   * `$defs` (root shape) or wrapped in `result` (legacy shape). `get_adcp_capabilities` is declared as
   * a plain object schema, so a run sees both kinds of tool.
   */
  metaId: boolean;
  /** Loose property types for the advertised outputSchema (every real payload validates). */
  outputProperties: Record<string, Schema>;
  /** Listed only by a sandbox seller started with `--test-controller` (comply_test_controller). */
  testController?: true;
  /** The advertised input schema when input-schemas.ts has none for this tool. */
  inputSchema?: Schema;
  /** A Promise for a task that waits on a downstream system (create_media_buy's ad server round trip). */
  run(args: JsonObject, env: ToolEnv): JsonObject | Promise<JsonObject>;
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
    // Only the protocols whose every Required task this seller lists (protocol/required-tasks.mdx). The
    // mutating ones (create/update_media_buy, provide_performance_feedback, activate_signal) are listed
    // by a sandbox seller only: a read-only seller declares the creative protocol alone.
    supported_protocols: env.sandbox ? ['media_buy', 'signals', 'creative'] : ['creative'],
    account: {
      supported_billing: ['operator'],
      required_for_products: env.requireAccount !== undefined,
      ...(env.requireAccount !== undefined ? { require_operator_auth: true } : {}),
      sandbox: env.sandbox,
    },
    // supports_proposals (3.1): brief answers carry proposals and refine honours finalize (proposals.ts).
    media_buy: { supported_pricing_models: ['cpm'], ...(releaseOf(env) === '3.0' ? {} : { supports_proposals: true }) },
    // Only when given: the 3.1 schema wants https, and the seller publishes no brand.json of its own. A 3.0
    // seller MAY send it too (security.mdx, "Adopting brand_json_url while pinned to AdCP 3.0").
    ...(env.brandJsonUrl !== undefined ? { identity: { brand_json_url: env.brandJsonUrl } } : {}),
  };
}

function getProducts(args: JsonObject, env: ToolEnv): JsonObject {
  const brief = (stringField(args, 'brief') ?? '').toLowerCase();
  const mode = args['buying_mode'];
  // Refine mode acknowledges every change request and returns the proposals it named (proposals.ts).
  const refined = mode === 'refine' ? refine(args, env.state, releaseOf(env)) : undefined;
  // A toy relevance rule: a brief that mentions video lists the video product first.
  const products = cloneJson(catalog.products).filter((p) => !refined?.omittedProducts.has(p.product_id));
  if (brief.includes('video')) products.reverse();
  const { items, pagination } = page('get_products', args, products);
  const proposals = mode === 'brief' ? briefProposals(env.state) : refined?.proposals;
  return atRelease(
    'get_products',
    {
      products: items,
      ...(proposals && proposals.length > 0 ? { proposals } : {}),
      ...(refined ? { refinement_applied: refined.refinement_applied } : {}),
      cache_scope: 'public',
      ...(pagination ? { pagination } : {}),
    },
    env,
  );
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

/**
 * list_creatives' filters this seller applies (core/creative-filters.json): creative_ids, statuses,
 * name_contains and format_ids; each one given narrows the library.
 */
function creativeFilter(args: JsonObject): (c: CreativeRecord) => boolean {
  const filters = objectField(args, 'filters') ?? {};
  const ids = wanted(filters, 'creative_ids');
  const statuses = wanted(filters, 'statuses');
  const name = stringField(filters, 'name_contains')?.toLowerCase();
  const formats = Array.isArray(filters['format_ids'])
    ? new Set(filters['format_ids'].filter(isPlainObject).map((f) => String(f['id'])))
    : undefined;
  return (c) =>
    (!ids || ids.has(c.creative_id)) &&
    (!statuses || statuses.has(c.status)) &&
    (name === undefined || c.name.toLowerCase().includes(name)) &&
    (!formats || formats.has(c.format_id.id));
}

function listCreatives(args: JsonObject, env: ToolEnv): JsonObject {
  const all = cloneJson([...env.state.creatives.values()].filter(creativeFilter(args)));
  const { items, pagination } = page('list_creatives', args, all);
  return {
    query_summary: { total_matching: all.length, returned: items.length },
    pagination: pagination ?? { has_more: false },
    creatives: items,
  };
}

function getMediaBuys(args: JsonObject, env: ToolEnv): JsonObject {
  const now = Date.now();
  // Newest first: a buy just booked is on the first page of the account's list.
  const buys = selectBuys(env.state.mediaBuys.values(), args, now)
    .reverse()
    .map((b) => buyView(b, releaseOf(env), now));
  const { items, pagination } = page('get_media_buys', args, buys);
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
      status: statusOf(b),
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

function getSignals(args: JsonObject, env: ToolEnv): JsonObject {
  const all = selectSignals(cloneJson(catalog.signals) as JsonObject[], args);
  if (releaseOf(env) === '3.0') for (const signal of all) for (const k of RELEASE_3_1_SIGNAL_FIELDS) delete signal[k];
  const { items, pagination } = page('get_signals', args, all);
  return atRelease('get_signals', { signals: items, cache_scope: 'public', ...(pagination ? { pagination } : {}) }, env);
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

/**
 * A mutating task run once per `idempotency_key`: the same key with another request is refused
 * (IDEMPOTENCY_CONFLICT); a replay returns the cached body marked `replayed`. The cache keeps the full (3.1)
 * body; `shape` fits each answer, replays included, to the release it is served at.
 */
function idempotentAnswer(
  tool: string,
  args: JsonObject,
  env: ToolEnv,
  run: () => JsonObject,
  shape: (body: JsonObject) => JsonObject = (body) => body,
): JsonObject {
  return replayAware(tool, env.state.idempotent(tool, stringField(args, 'idempotency_key') ?? '', args, run), shape);
}

/** The answer of an idempotent run: a conflict refused, a replay marked `replayed` (security.mdx rule 4). */
function replayAware(tool: string, outcome: IdempotentOutcome, shape: (body: JsonObject) => JsonObject): JsonObject {
  if ('conflict' in outcome) throw idempotencyConflict(tool);
  const body = shape(cloneJson(outcome.body));
  return outcome.replayed ? { ...body, replayed: true } : body;
}

/** What a create_media_buy must name: products this seller sells, their pricing options, a flight that ends after it starts. */
function checkBooking(args: JsonObject, env: ToolEnv): void {
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
    checkMeasurementTerms(p, `packages[${i}]`);
    checkAssignments(p, `packages[${i}]`, env);
  }
  // Package refusals first, then the buy's flight.
  checkNewFlight(args);
}

async function createMediaBuy(args: JsonObject, env: ToolEnv): Promise<JsonObject> {
  requireSandbox(env, 'create_media_buy');
  // The booking runs with its key marked in flight (a retry arriving meanwhile waits, then replays); a
  // refusal inside it stores nothing under the key, so the corrected request executes.
  const key = stringField(args, 'idempotency_key') ?? '';
  const outcome = await env.state.idempotentAwaiting('create_media_buy', key, args, async () => {
    const booking = withProposalPackages(args, env);
    checkBooking(booking, env);
    // A test-controller directive for this account shapes this one booking (after the checks: a refused
    // booking does not consume it).
    const forced = takeForcedArm(env.state, args);
    if (forced) return forcedAnswer(forced, args, env.state);
    // Guaranteed inventory waits on the publisher's IO signature: answer `submitted`, book when it is signed.
    if (awaitsApproval(args)) {
      const release = releaseOf(env);
      const task = tasksOf(env.state).start(args, () => payloadOf(atRelease('create_media_buy', book(booking), env), undefined, release));
      return submittedBody(task);
    }
    await env.state.adServerRoundTrip();
    return book(booking);
  });
  return replayAware('create_media_buy', outcome, (body) => atRelease('create_media_buy', body, env));

  function book(booking: JsonObject): JsonObject {
    const now = new Date().toISOString();
    const account = objectField(args, 'account');
    const packages = (Array.isArray(booking['packages']) ? booking['packages'] : []).filter(isPlainObject).map((p): PackageRecord => ({
      package_id: env.state.newId('pkg'),
      product_id: String(p['product_id']),
      pricing_option_id: String(p['pricing_option_id']),
      budget: Number(p['budget']),
      ...persistedFields(p),
      creative_ids: assignedCreatives(p) ?? [],
    }));
    const record: MediaBuyRecord = {
      media_buy_id: env.state.newId('mb'),
      ...(account ? { account: cloneJson(account) } : {}),
      currency: catalog.CURRENCY,
      total_budget: packages.reduce((sum, p) => sum + p.budget, 0),
      // `asap` starts the flight now: the buy records the date-time it became.
      start_time: args['start_time'] === 'asap' ? now : String(args['start_time']),
      end_time: String(args['end_time']),
      confirmed_at: now,
      revision: 1,
      canceled: false,
      hold: args['paused'] === true ? 'create' : 'none',
      packages,
    };
    env.state.remember(env.state.mediaBuys, record.media_buy_id, record);
    return { ...buyAnswer(record), confirmed_at: record.confirmed_at, packages: record.packages.map(packageAnswer) };
  }
}

/**
 * A booking of packages that names a guaranteed product goes asynchronous (create_media_buy.mdx: a
 * guaranteed buy may need a human decision such as IO signing; non-guaranteed ones MUST answer at once).
 * A proposal's execution stays synchronous: finalizing it already committed the seller to its terms.
 */
function awaitsApproval(args: JsonObject): boolean {
  if (args['proposal_id'] !== undefined || !Array.isArray(args['packages'])) return false;
  return args['packages']
    .filter(isPlainObject)
    .some((p) => catalog.products.find((c) => c.product_id === p['product_id'])?.delivery_type === 'guaranteed');
}

/**
 * A booking in proposal mode (create_media_buy.mdx: "Either packages OR (proposal_id + total_budget)")
 * gets the packages the proposal's allocations make; both at once is refused.
 */
function withProposalPackages(args: JsonObject, env: ToolEnv): JsonObject {
  if (args['proposal_id'] === undefined) return args;
  if (args['packages'] !== undefined) {
    throw new AdcpFailure({
      code: 'INVALID_REQUEST',
      message: 'Send either packages or proposal_id with total_budget, not both',
      recovery: 'correctable',
      field: 'packages',
      suggestion: 'Drop packages to execute the proposal, or drop proposal_id to book packages.',
    });
  }
  return { ...args, packages: proposalPackages(args, env.state, releaseOf(env)) };
}

/** What a package request sets that the buy keeps and echoes: its targeting overlay and measurement terms. */
function persistedFields(p: JsonObject): Pick<PackageRecord, 'targeting_overlay' | 'measurement_terms'> {
  const targeting = objectField(p, 'targeting_overlay');
  const terms = objectField(p, 'measurement_terms');
  return { ...(targeting ? { targeting_overlay: cloneJson(targeting) } : {}), ...(terms ? { measurement_terms: cloneJson(terms) } : {}) };
}

/**
 * What create_media_buy and update_media_buy both answer about a buy. `status` is the envelope's task
 * status on the flat MCP wire; the buy's own state travels as media_buy_status (3.1 only: a 3.0 answer
 * leaves it out, see atRelease).
 */
function buyAnswer(buy: MediaBuyRecord): JsonObject {
  return {
    media_buy_id: buy.media_buy_id,
    media_buy_status: statusOf(buy),
    revision: buy.revision,
    currency: buy.currency,
    total_budget: buy.total_budget,
    sandbox: true,
  };
}

function syncCreatives(args: JsonObject, env: ToolEnv): JsonObject {
  requireSandbox(env, 'sync_creatives');
  const dryRun = args['dry_run'] === true;
  return idempotentAnswer('sync_creatives', args, env, () => {
    const creativeIds = new Set(
      (Array.isArray(args['creatives']) ? args['creatives'] : []).filter(isPlainObject).map((c) => String(c['creative_id'])),
    );
    const assignments = (Array.isArray(args['assignments']) ? args['assignments'] : [])
      .filter(isPlainObject)
      .filter((a) => creativeIds.has(String(a['creative_id'])));
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
    // After the library holds the creatives: attach the requested assignments (none on a dry run).
    if (assignments.length > 0) {
      const outcome = assignFromSync(env.state.mediaBuys.values(), assignments, !dryRun);
      for (const r of results) {
        const o = outcome.get(r.creative_id);
        if (!o) continue;
        Object.assign(r, {
          ...(o.assigned.length > 0 ? { assigned_to: o.assigned } : {}),
          ...(Object.keys(o.errors).length > 0 ? { assignment_errors: o.errors } : {}),
        });
      }
    }
    return { dry_run: dryRun, creatives: results, sandbox: true };
  });
}

function mediaBuyOf(args: JsonObject, env: ToolEnv): MediaBuyRecord {
  const id = stringField(args, 'media_buy_id');
  const buy = id !== undefined ? env.state.mediaBuys.get(id) : undefined;
  if (!buy) {
    throw new AdcpFailure({
      code: 'MEDIA_BUY_NOT_FOUND',
      message: 'No media buy with this media_buy_id on this seller',
      recovery: 'correctable',
      field: 'media_buy_id',
      suggestion: 'Use a media_buy_id from create_media_buy or get_media_buys.',
    });
  }
  return buy;
}

/** Checks an update against the buy as it stands; throws the AdCP error that refuses it. */
function checkUpdate(args: JsonObject, buy: MediaBuyRecord, env: ToolEnv): void {
  const revision = args['revision'];
  if (typeof revision === 'number' && revision !== buy.revision) {
    throw new AdcpFailure({
      code: 'CONFLICT',
      message: `revision ${revision} is stale: the media buy is at revision ${buy.revision}`,
      recovery: 'transient',
      field: 'revision',
      suggestion: 'Re-read the media buy with get_media_buys and retry with its current revision.',
    });
  }
  // Terminal states (lifecycle.mdx): canceled or completed buys take no further update.
  const status = statusOf(buy);
  if (status === 'canceled' || status === 'completed') {
    throw args['canceled'] === true
      ? new AdcpFailure({ code: 'NOT_CANCELLABLE', message: `The media buy is already ${status}`, recovery: 'correctable' })
      : new AdcpFailure({
          code: 'INVALID_STATE',
          message: `A ${status} media buy cannot be updated`,
          recovery: 'correctable',
          suggestion: 'Check its status with get_media_buys; book a new media buy instead.',
        });
  }
  const packages = (Array.isArray(args['packages']) ? args['packages'] : []).filter(isPlainObject);
  for (const [i, p] of packages.entries()) {
    if (!buy.packages.some((own) => own.package_id === p['package_id'])) {
      throw new AdcpFailure({
        code: 'PACKAGE_NOT_FOUND',
        message: 'A package update names a package this media buy does not have',
        recovery: 'correctable',
        field: `packages[${i}].package_id`,
        suggestion: 'Use a package_id from the media buy (get_media_buys).',
      });
    }
    const budget = p['budget'];
    if (budget !== undefined && (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 0)) {
      throw new AdcpFailure({
        code: 'VALIDATION_ERROR',
        message: 'A package budget must be a non-negative number',
        recovery: 'correctable',
        field: `packages[${i}].budget`,
      });
    }
    checkAssignments(p, `packages[${i}]`, env);
  }
  checkFlightOrder(
    Date.parse(stringField(args, 'start_time') ?? buy.start_time),
    Date.parse(stringField(args, 'end_time') ?? buy.end_time),
  );
}

/** Creative assignments name creatives of this seller's library (sync_creatives first). */
function checkAssignments(pkg: JsonObject, at: string, env: ToolEnv): void {
  for (const [j, id] of (assignedCreatives(pkg) ?? []).entries()) {
    if (!env.state.creatives.has(id)) {
      throw new AdcpFailure({
        code: 'CREATIVE_NOT_FOUND',
        message: 'A creative assignment names a creative this seller does not hold',
        recovery: 'correctable',
        field: `${at}.creative_assignments[${j}].creative_id`,
        suggestion: 'Upload the creative with sync_creatives first, or use a creative_id from list_creatives.',
      });
    }
  }
}

/** Pause, resume, cancel, re-budget packages or move the flight of a sandbox buy; each change bumps `revision`. */
function updateMediaBuy(args: JsonObject, env: ToolEnv): JsonObject {
  requireSandbox(env, 'update_media_buy');
  return idempotentAnswer(
    'update_media_buy',
    args,
    env,
    () => {
      // Refusals throw inside: a refused update stores nothing under its key.
      const buy = mediaBuyOf(args, env);
      checkUpdate(args, buy, env);
      const updates = new Map(
        (Array.isArray(args['packages']) ? args['packages'] : []).filter(isPlainObject).map((p) => [String(p['package_id']), p]),
      );
      // A cancel ignores every other field of the request.
      if (args['canceled'] === true) buy.canceled = true;
      else {
        // Resuming clears the hold; the buy then shows what still blocks it, if anything (lifecycle.mdx).
        if (args['paused'] === true) buy.hold = 'update';
        else if (args['paused'] === false) buy.hold = 'none';
        for (const p of buy.packages) {
          const update = updates.get(p.package_id);
          if (!update) continue;
          if (typeof update['budget'] === 'number') p.budget = update['budget'];
          Object.assign(p, persistedFields(update));
          p.creative_ids = assignedCreatives(update) ?? p.creative_ids;
        }
        buy.total_budget = buy.packages.reduce((sum, p) => sum + p.budget, 0);
        buy.start_time = stringField(args, 'start_time') ?? buy.start_time;
        buy.end_time = stringField(args, 'end_time') ?? buy.end_time;
      }
      buy.revision += 1;
      const touched =
        args['canceled'] === true || updates.size === 0 ? buy.packages : buy.packages.filter((p) => updates.has(p.package_id));
      // Full packages, never id stubs.
      return { ...buyAnswer(buy), affected_packages: touched.map(packageAnswer) };
    },
    (body) => atRelease('update_media_buy', body, env),
  );
}

/** Buyer optimization signals: accepted for a buy this seller holds (a sandbox seller keeps no model to feed). */
function providePerformanceFeedback(args: JsonObject, env: ToolEnv): JsonObject {
  requireSandbox(env, 'provide_performance_feedback');
  return idempotentAnswer('provide_performance_feedback', args, env, () => {
    mediaBuyOf(args, env);
    return { success: true, sandbox: true };
  });
}

/** Activates (or deactivates) one of this seller's signals on each destination: live at once, keyed by segment id. */
function activateSignal(args: JsonObject, env: ToolEnv): JsonObject {
  requireSandbox(env, 'activate_signal');
  return idempotentAnswer('activate_signal', args, env, () => {
    const id = stringField(args, 'signal_agent_segment_id');
    if (!catalog.signals.some((s) => s.signal_agent_segment_id === id)) {
      // REFERENCE_NOT_FOUND, not SIGNAL_NOT_FOUND: that one is for data-provider signal_id / signal_ref
      // references, not an agent's own opaque segment ids (the 3.1 error-compliance-signals storyboard).
      throw new AdcpFailure({
        code: 'REFERENCE_NOT_FOUND',
        message: 'No signal with this signal_agent_segment_id on this agent',
        recovery: 'correctable',
        field: 'signal_agent_segment_id',
        suggestion: 'Use a signal_agent_segment_id from get_signals.',
      });
    }
    const live = args['action'] !== 'deactivate';
    const deployments = (Array.isArray(args['destinations']) ? args['destinations'] : []).filter(isPlainObject).map((d) => ({
      ...(d['type'] === 'agent'
        ? { type: 'agent', agent_url: String(d['agent_url']) }
        : { type: 'platform', platform: String(d['platform']) }),
      ...(typeof d['account'] === 'string' ? { account: d['account'] } : {}),
      is_live: live,
      ...(live ? { activation_key: { type: 'segment_id', segment_id: String(id) }, deployed_at: new Date().toISOString() } : {}),
    }));
    return { deployments, sandbox: true };
  });
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
  {
    name: 'update_media_buy',
    description: 'Pause, resume, cancel or re-budget a media buy (sandbox accounts only; idempotent by idempotency_key).',
    mutating: true,
    text: 'mirror',
    metaId: true,
    outputProperties: { ...envelopeProps, media_buy_id: { type: 'string' }, affected_packages: { type: 'array' } },
    run: updateMediaBuy,
    summarize: (b) => `Media buy ${String(b['media_buy_id'])} updated.`,
  },
  {
    name: 'provide_performance_feedback',
    description: 'Send performance feedback on a media buy (sandbox accounts only; idempotent by idempotency_key).',
    mutating: true,
    text: 'summary',
    metaId: true,
    outputProperties: { ...envelopeProps, success: { type: 'boolean' } },
    run: providePerformanceFeedback,
    summarize: () => 'Performance feedback received.',
  },
  {
    name: 'activate_signal',
    description: 'Activate a signal on decisioning platforms (sandbox accounts only; idempotent by idempotency_key).',
    mutating: true,
    text: 'summary',
    metaId: true,
    outputProperties: { ...envelopeProps, deployments: { type: 'array' } },
    run: activateSignal,
    summarize: (b) => `Signal activated on ${count(b, 'deployments')} destinations.`,
  },
  {
    name: TEST_CONTROLLER_TOOL,
    description: 'Triggers seller-side state transitions for compliance testing. Sandbox only.',
    mutating: false,
    testController: true,
    inputSchema: testControllerInputSchema,
    text: 'mirror',
    metaId: false,
    outputProperties: { ...envelopeProps, success: { type: 'boolean' } },
    run: (args, env) => {
      requireSandbox(env, TEST_CONTROLLER_TOOL);
      return runTestController(args, env.state);
    },
    summarize: (b) => (b['success'] === true ? 'Test controller: done.' : 'Test controller: refused.'),
  },
  // The AdCP polling tool (tasks.ts): legacy `tasks/get` and its alias, one payload shape.
  ...POLLING_TOOLS.map((name): ToolSpec => ({
    name,
    description: 'The state of an async task by task_id (include_result: true adds the terminal result).',
    mutating: false,
    text: 'mirror',
    metaId: false,
    outputProperties: { ...envelopeProps, task_id: { type: 'string' }, result: { type: 'object' } },
    run: (args, env) => pollTask(args, env.state),
    summarize: (b) => `Task ${String(b['task_id'])} is ${String(b['status'])}.`,
  })),
];
