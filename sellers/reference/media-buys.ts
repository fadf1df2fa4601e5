// The media buys of the reference seller: what it stores per buy and the buy's lifecycle state, derived
// from that record and the clock as AdCP media-buy/media-buys/lifecycle.mdx draws it
// (https://adcontextprotocol.org/docs/media-buy/media-buys/lifecycle):
// no creatives → pending_creatives; creatives, flight ahead → pending_start; flight started → active;
// update_media_buy paused → paused (a create-time hold stays latent until the buy could serve);
// canceled (terminal); flight over → completed.
import { AdcpFailure } from './adcp-error.ts';
import { cloneJson, isPlainObject, type JsonObject } from './json.ts';

export type MediaBuyStatus = 'pending_creatives' | 'pending_start' | 'active' | 'paused' | 'completed' | 'canceled';

export interface PackageRecord {
  package_id: string;
  product_id: string;
  /** Ours (delivery rates): get_media_buys' package declares none, at 3.0 or 3.1. */
  pricing_option_id: string;
  budget: number;
  /** Echoed from the most recent create or update (get-media-buys-response.json: targeting_overlay). */
  targeting_overlay?: JsonObject;
  /** The accepted measurement_terms, echoed back. */
  measurement_terms?: JsonObject;
  /** Creatives assigned to the package (creative_assignments), by id. */
  creative_ids: string[];
}

export interface MediaBuyRecord {
  media_buy_id: string;
  /** The account reference the buy was booked under (get_media_buys scopes a list to it). */
  account?: JsonObject;
  currency: string;
  total_budget: number;
  start_time: string;
  end_time: string;
  confirmed_at: string;
  revision: number;
  canceled: boolean;
  /** The buyer's hold: `create` (top-level paused at booking, latent until the buy could serve) or `update`. */
  hold: 'none' | 'create' | 'update';
  packages: PackageRecord[];
}

/** A start this close behind the seller's clock still counts as "now" (clock skew between the parties). */
export const START_SKEW_MS = 60_000;

/** The buy's lifecycle state now. */
export function statusOf(buy: MediaBuyRecord, now = Date.now()): MediaBuyStatus {
  if (buy.canceled) return 'canceled';
  if (Date.parse(buy.end_time) <= now) return 'completed';
  // update_media_buy.mdx: `paused: true` = paused, at once.
  if (buy.hold === 'update') return 'paused';
  if (buy.packages.some((p) => p.creative_ids.length === 0)) return 'pending_creatives';
  if (Date.parse(buy.start_time) > now) return 'pending_start';
  return buy.hold === 'create' ? 'paused' : 'active';
}

const invalidRequest = (message: string, field: string, suggestion: string): AdcpFailure =>
  new AdcpFailure({ code: 'INVALID_REQUEST', message, recovery: 'correctable', field, suggestion });

/**
 * A new buy's flight: a concrete start_time in the past → INVALID_REQUEST (create_media_buy.mdx "Flight
 * date validation", 3.1; the 3.0 storyboards' reject path expects the same code), and an end at or
 * before the start → INVALID_REQUEST (the same section, for inverted dates). `asap` starts now.
 */
export function checkNewFlight(args: JsonObject, now = Date.now()): void {
  const start = args['start_time'] === 'asap' ? now : Date.parse(String(args['start_time']));
  if (Number.isFinite(start) && start < now - START_SKEW_MS) {
    throw invalidRequest(
      'start_time is in the past: a new media buy starts now ("asap") or later',
      'start_time',
      'Send start_time "asap" or a date-time that is not in the past.',
    );
  }
  checkFlightOrder(start, Date.parse(String(args['end_time'])));
}

/** An end at or before the start → INVALID_REQUEST. */
export function checkFlightOrder(start: number, end: number): void {
  if (Number.isFinite(start) && Number.isFinite(end) && end <= start) {
    throw invalidRequest('end_time must be after start_time', 'end_time', 'Send a flight whose end_time is later than its start_time.');
  }
}

/** The creative ids of a package request's creative_assignments. */
export function assignedCreatives(pkg: JsonObject): string[] | undefined {
  const v = pkg['creative_assignments'];
  if (!Array.isArray(v)) return undefined;
  return v.filter(isPlainObject).flatMap((a) => (typeof a['creative_id'] === 'string' ? [a['creative_id']] : []));
}

const targeting = (p: PackageRecord): JsonObject => (p.targeting_overlay ? { targeting_overlay: cloneJson(p.targeting_overlay) } : {});

/** The package as create and update answers show it (core/package.json). */
export function packageAnswer(p: PackageRecord): JsonObject {
  return {
    package_id: p.package_id,
    product_id: p.product_id,
    pricing_option_id: p.pricing_option_id,
    budget: p.budget,
    ...targeting(p),
    ...(p.measurement_terms ? { measurement_terms: cloneJson(p.measurement_terms) } : {}),
    ...(p.creative_ids.length > 0 ? { creative_assignments: p.creative_ids.map((creative_id) => ({ creative_id })) } : {}),
  };
}

/**
 * The package as get_media_buys lists it: its own package shape (currency, targeting_overlay,
 * creative_approvals; no pricing_option_id or measurement_terms, which it does not declare).
 */
export function packageView(p: PackageRecord, currency: string): JsonObject {
  return {
    package_id: p.package_id,
    product_id: p.product_id,
    budget: p.budget,
    currency,
    ...targeting(p),
    ...(p.creative_ids.length > 0
      ? { creative_approvals: p.creative_ids.map((creative_id) => ({ creative_id, approval_status: 'approved' })) }
      : {}),
  };
}

/**
 * A buy as get_media_buys lists it. Its state travels as `status` (get-media-buys-response.json, 3.0 and
 * 3.1); serving 3.1 it also carries `media_buy_status` with the same value, the name 3.1 gives the buy's
 * state on create and update answers (reference/migration/media-buy-status.mdx) and 4.0 gives it here.
 */
export function buyView(buy: MediaBuyRecord, release: string, now = Date.now()): JsonObject {
  const status = statusOf(buy, now);
  return {
    media_buy_id: buy.media_buy_id,
    status,
    ...(release === '3.0' ? {} : { media_buy_status: status }),
    currency: buy.currency,
    total_budget: buy.total_budget,
    start_time: buy.start_time,
    end_time: buy.end_time,
    confirmed_at: buy.confirmed_at,
    revision: buy.revision,
    packages: buy.packages.map((p) => packageView(p, buy.currency)),
  };
}

/** An account reference's identity: its account_id, else the natural key (brand domain and operator). */
export function accountKey(ref: unknown): string | undefined {
  if (!isPlainObject(ref)) return undefined;
  if (typeof ref['account_id'] === 'string') return `id:${ref['account_id']}`;
  const brand = ref['brand'];
  const domain = isPlainObject(brand) && typeof brand['domain'] === 'string' ? brand['domain'] : undefined;
  const operator = typeof ref['operator'] === 'string' ? ref['operator'] : undefined;
  return domain !== undefined || operator !== undefined ? `nk:${domain ?? ''}|${operator ?? ''}` : undefined;
}

/**
 * get_media_buys' selection (get_media_buys.mdx): the named buys, else the account's buys (every buy
 * when no account is named) whose status is in `status_filter` — by default `["active"]` when no
 * media_buy_ids are given; with ids, no implicit status filter.
 */
export function selectBuys(buys: Iterable<MediaBuyRecord>, args: JsonObject, now = Date.now()): MediaBuyRecord[] {
  const ids = Array.isArray(args['media_buy_ids']) ? new Set(args['media_buy_ids']) : undefined;
  const rawFilter = args['status_filter'];
  const filter =
    typeof rawFilter === 'string'
      ? new Set([rawFilter])
      : Array.isArray(rawFilter)
        ? new Set(rawFilter)
        : ids
          ? undefined
          : new Set(['active']);
  const account = accountKey(args['account']);
  return [...buys].filter(
    (b) =>
      (!ids || ids.has(b.media_buy_id)) &&
      (ids || account === undefined || accountKey(b.account) === account) &&
      (!filter || filter.has(statusOf(b, now))),
  );
}

/** The billing-measurement terms this seller can honour (its proposal policy for measurement_terms). */
export const MEASUREMENT_POLICY = { windows: ['live', 'c3', 'c7'], minVariancePercent: 10 } as const;

/**
 * Buyer-proposed measurement_terms the seller cannot honour → TERMS_REJECTED naming the term and what
 * it accepts (create_media_buy.mdx, package `measurement_terms`: "Seller accepts …, rejects with
 * TERMS_REJECTED, or adjusts"; the error code's text: the details SHOULD identify the term and the
 * acceptable range).
 */
export function checkMeasurementTerms(pkg: JsonObject, at: string): void {
  const terms = pkg['measurement_terms'];
  const billing = isPlainObject(terms) ? terms['billing_measurement'] : undefined;
  if (!isPlainObject(billing)) return;
  const window = billing['measurement_window'];
  const variance = billing['max_variance_percent'];
  const refuse = (term: string, message: string): AdcpFailure =>
    new AdcpFailure({
      code: 'TERMS_REJECTED',
      message,
      recovery: 'correctable',
      field: `${at}.measurement_terms.billing_measurement.${term}`,
      suggestion: `Propose a measurement_window of ${MEASUREMENT_POLICY.windows.join(', ')} and a max_variance_percent of at least ${MEASUREMENT_POLICY.minVariancePercent}, or omit measurement_terms to accept the product's defaults.`,
      details: {
        rejected_term: `billing_measurement.${term}`,
        accepted: { measurement_windows: [...MEASUREMENT_POLICY.windows], min_max_variance_percent: MEASUREMENT_POLICY.minVariancePercent },
      },
    });
  if (typeof window === 'string' && !(MEASUREMENT_POLICY.windows as readonly string[]).includes(window))
    throw refuse('measurement_window', `measurement_window "${window}" is not a window this seller reconciles billing against`);
  if (typeof variance === 'number' && variance < MEASUREMENT_POLICY.minVariancePercent)
    throw refuse(
      'max_variance_percent',
      `max_variance_percent ${variance} is below the ${MEASUREMENT_POLICY.minVariancePercent}% this seller can honour`,
    );
}

/**
 * sync_creatives `assignments` (creative → package): each creative is attached to its package, so a
 * pending_creatives buy moves on (lifecycle.mdx: "pending_creatives → pending_start: sync_creatives");
 * each buy touched gets a new revision. Per creative: the packages it was assigned to, and the reason
 * per package it was not (an unknown package, or a buy that is over).
 */
export function assignFromSync(
  buys: Iterable<MediaBuyRecord>,
  assignments: readonly JsonObject[],
  apply: boolean,
  now = Date.now(),
): Map<string, { assigned: string[]; errors: Record<string, string> }> {
  const byPackage = new Map<string, { buy: MediaBuyRecord; pkg: PackageRecord }>();
  for (const buy of buys) for (const pkg of buy.packages) byPackage.set(pkg.package_id, { buy, pkg });
  const out = new Map<string, { assigned: string[]; errors: Record<string, string> }>();
  const touched = new Set<MediaBuyRecord>();
  for (const a of assignments) {
    const creative = String(a['creative_id']);
    const packageId = String(a['package_id']);
    const entry = out.get(creative) ?? { assigned: [], errors: {} };
    out.set(creative, entry);
    const hit = byPackage.get(packageId);
    const status = hit ? statusOf(hit.buy, now) : undefined;
    if (!hit) entry.errors[packageId] = 'No package with this package_id on this seller';
    else if (status === 'canceled' || status === 'completed') entry.errors[packageId] = `The media buy is ${status}`;
    else {
      entry.assigned.push(packageId);
      if (apply && !hit.pkg.creative_ids.includes(creative)) {
        hit.pkg.creative_ids.push(creative);
        touched.add(hit.buy);
      }
    }
  }
  for (const buy of touched) buy.revision += 1;
  return out;
}
