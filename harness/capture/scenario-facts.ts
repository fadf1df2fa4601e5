// The names of the business-rule scenarios and their steps, and the pure readers both sides share: the
// capture uses them to decide what to call next (a cursor to follow, a product to book), the checks to
// judge what came back. Every reader works on raw seller JSON (own properties only, never throws) and
// reads a success the way a conformant client does (harness/extract/success.ts).
import type { Exchange } from '../record/exchange.ts';
import type { BookedProduct } from './probes.ts';
import { LIST_SHAPES } from '../adcp-tasks.ts';
import { isObject, own, type JsonObject } from '../json.ts';
import { locateSuccess } from '../extract/success.ts';

/** Scenario names (an Exchange's `scenario.name`, a ScenarioRecord's `name`). */
export const SCENARIO = {
  version: 'version-negotiation',
  pagination: 'pagination',
  idempotency: 'idempotency',
  unknownReference: 'unknown-reference',
  unauthenticated: 'unauthenticated',
} as const;

/** Step names (an Exchange's `scenario.step`); pagination pages are `page-1`, `page-2`, … */
export const STEP = {
  /** A scenario's own call of the task it varies, when no probe made one. */
  base: 'base',
  unsupportedVersion: 'unsupported-version',
  supportedVersion: 'supported-version',
  original: 'original',
  replay: 'replay',
  conflict: 'conflict',
  missingKey: 'missing-key',
  /** A booking refused (an unknown product) under a fresh key, then the corrected booking under that key. */
  errorFirst: 'error-first',
  errorRetry: 'error-retry',
  /** A booking whose idempotency_key is shorter than the schemas allow. */
  malformedKey: 'malformed-key',
  /** Two identical bookings under one fresh key, sent at once (recorded first, second). */
  concurrentFirst: 'concurrent-first',
  concurrentSecond: 'concurrent-second',
  /** A buy the idempotency walk booked, canceled again. */
  cleanup: 'cleanup',
  unknownProduct: 'unknown-product',
  unknownMediaBuy: 'unknown-media-buy',
  withoutCredentials: 'without-credentials',
} as const;

export const pageStep = (n: number): string => `page-${n}`;
export const pageNumber = (step: string): number | null => {
  const m = /^page-(\d{1,3})$/.exec(step);
  return m ? Number(m[1]) : null;
};

/** The unsupported major version the harness asks for. */
export const UNSUPPORTED_MAJOR = 99;
/** Pages the pagination walk follows at most (the page size is chosen so an honest list ends within them). */
export const MAX_PAGES = 4;
/** Cursors longer than this are not sent back (a seller's cursor is opaque, not unbounded). */
export const MAX_CURSOR_CHARS = 16_384;

/** The scenario a call belongs to, if any (a malformed record counts as none). */
export function scenarioOf(x: Exchange): { name: string; step: string } | undefined {
  const s: unknown = (x as { scenario?: unknown }).scenario;
  const name = own(s, 'name');
  const step = own(s, 'step');
  return typeof name === 'string' && typeof step === 'string' ? { name, step } : undefined;
}

/** A tools/call result that is not an error (isError absent or false). */
export function isSuccess(x: Exchange): boolean {
  if (x.outcome?.kind !== 'result' || !isObject(x.outcome.result)) return false;
  const isError = own(x.outcome.result, 'isError');
  return isError === undefined || isError === false;
}

/** The AdCP payload of a success, as a conformant client extracts it; null when there is none. */
export function successPayload(x: Exchange): JsonObject | null {
  if (!isSuccess(x) || x.outcome.kind !== 'result') return null;
  return locateSuccess(x.outcome.result)?.data ?? null;
}

/**
 * Fields a scenario step does not inherit from the call it varies: the per-call `context` (the harness sends a
 * fresh one) and the version pin (a step sets the pin it tests, or gets the session's pin from the capture).
 */
const VARIED = new Set(['context', 'adcp_version', 'adcp_major_version']);

/** A call's arguments as a scenario step starts from them: without its context and version pin. */
export function variedArguments(x: Exchange): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x.request.arguments)) if (!VARIED.has(k)) out[k] = v;
  return out;
}

/** The first plain probe (no scenario, valid intent) of `tool` that succeeded, if any. */
export function probeSuccess(exchanges: readonly Exchange[], tool: string): Exchange | undefined {
  return exchanges.find((x) => x.tool === tool && x.intent !== 'invalid' && !scenarioOf(x) && isSuccess(x));
}

/** A plain call of `tool` as a scenario may vary it: a valid probe, or an earlier scenario's own `base` call. */
export function isPlainCall(x: Exchange, tool: string): boolean {
  const s = scenarioOf(x);
  return x.tool === tool && x.intent !== 'invalid' && (s === undefined || s.step === STEP.base);
}

export interface CapabilityFacts {
  /** `adcp.idempotency.supported`: true, false, or not declared / no capabilities answer. */
  idempotency: 'supported' | 'unsupported' | 'undeclared';
  /** The newest AdCP major version the seller declares (major_versions, else supported_versions); 3 when it says none. */
  supportedMajor: number;
}

/** What the seller's get_adcp_capabilities answer (the first successful plain probe) declares. */
export function capabilityFacts(exchanges: readonly Exchange[]): CapabilityFacts {
  const x = probeSuccess(exchanges, 'get_adcp_capabilities');
  const adcp = own(x ? successPayload(x) : null, 'adcp');
  const supported = own(own(adcp, 'idempotency'), 'supported');
  const idempotency = supported === true ? 'supported' : supported === false ? 'unsupported' : 'undeclared';
  const majors = own(adcp, 'major_versions');
  const releases = own(adcp, 'supported_versions');
  const fromMajors = Array.isArray(majors) ? majors.filter((m): m is number => Number.isInteger(m) && m >= 1 && m < UNSUPPORTED_MAJOR) : [];
  const fromReleases = Array.isArray(releases)
    ? releases.flatMap((r) => {
        const m = typeof r === 'string' ? /^(\d{1,2})\.\d+/.exec(r) : null;
        const major = m ? Number(m[1]) : NaN;
        return major >= 1 && major < UNSUPPORTED_MAJOR ? [major] : [];
      })
    : [];
  const all = fromMajors.length ? fromMajors : fromReleases;
  return { idempotency, supportedMajor: all.length ? Math.max(...all) : 3 };
}

/** A list task the pagination walk can follow: where its items are and what identifies one. */
export interface ListTask {
  tool: string;
  items: string;
  key(item: unknown): string | null;
}

const stringKey =
  (field: string) =>
  (item: unknown): string | null => {
    const v = own(item, field);
    return typeof v === 'string' && v !== '' ? v : null;
  };

/** A format is identified by its `format_id` object ({agent_url, id}). */
function formatKey(item: unknown): string | null {
  const id = own(item, 'format_id');
  const agent = own(id, 'agent_url');
  const name = own(id, 'id');
  return typeof name === 'string' ? `${typeof agent === 'string' ? agent : ''}#${name}` : null;
}

/** In the order the walk prefers them (the request schemas of all take `pagination`). */
export const LIST_TASKS: readonly ListTask[] = LIST_SHAPES.map(({ tool, items, id }) => ({
  tool,
  items,
  key: id === 'format_id' ? formatKey : stringKey(id),
}));

export function listTask(tool: string): ListTask | undefined {
  return LIST_TASKS.find((t) => t.tool === tool);
}

/** The items array of a list task's payload, or null when the payload has none. */
export function listItems(task: ListTask, payload: JsonObject | null): unknown[] | null {
  const items = own(payload, task.items);
  return Array.isArray(items) ? items : null;
}

/** pagination has_more and cursor of a page, raw (the judge says what is wrong with them). */
export function pageInfo(payload: JsonObject | null): { present: boolean; hasMore: unknown; cursor: unknown } {
  const p = own(payload, 'pagination');
  return { present: isObject(p), hasMore: own(p, 'has_more'), cursor: own(p, 'cursor') };
}

/** The page size that lets an honest list of `n` items end within MAX_PAGES pages, and still needs more than one. */
export function pageSize(n: number): number {
  return Math.min(100, Math.max(1, Math.ceil(n / (MAX_PAGES - 1))));
}

/**
 * The first product of the seller's own get_products answer that names a pricing option (and that `accept`
 * takes, e.g. a non-guaranteed one): what a buyer would book.
 */
export function bookableProduct(
  exchanges: readonly Exchange[],
  accept: (product: unknown) => boolean = () => true,
): BookedProduct | undefined {
  for (const x of exchanges) {
    if (x.tool !== 'get_products' || x.intent === 'invalid') continue;
    const products = own(successPayload(x), 'products');
    if (!Array.isArray(products)) continue;
    for (const p of products) {
      if (!accept(p)) continue;
      const productId = own(p, 'product_id');
      const options = own(p, 'pricing_options');
      const option: unknown = Array.isArray(options) ? options[0] : undefined;
      const pricingOptionId = own(option, 'pricing_option_id');
      if (typeof productId !== 'string' || typeof pricingOptionId !== 'string') continue;
      const fixed = own(option, 'fixed_price');
      const floor = own(option, 'floor_price');
      const minSpend = own(option, 'min_spend_per_package');
      return {
        productId,
        pricingOptionId,
        ...(typeof fixed !== 'number' && typeof floor === 'number' && Number.isFinite(floor) ? { bidPrice: floor } : {}),
        ...(typeof minSpend === 'number' && Number.isFinite(minSpend) && minSpend > 0 ? { minSpend } : {}),
      };
    }
  }
  return undefined;
}
