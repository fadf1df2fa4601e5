// Shared bits of the schema tests: the ../shared location, capture builders and minimal AdCP payloads.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import { REFERENCE_SELLER_TASKS } from '../../sellers/launch.ts';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHARED = path.resolve(PROJECT_ROOT, '..', 'shared');
export const SHARED_SCHEMAS = path.join(SHARED, 'adcp', 'schemas');
export const SHARED_3_1 = path.join(SHARED_SCHEMAS, '3.1.19');
/** True when ../shared (with the 3.1.19 tree) is absent: the tests that read it skip. */
export const NO_SHARED = !existsSync(path.join(SHARED_3_1, 'index.json'));
export const NO_SHARED_MESSAGE = '../shared is absent (no adcp/schemas/3.1.19 tree)';

/** The AdCP tasks the reference seller exposes. */
export const SELLER_TASKS = REFERENCE_SELLER_TASKS;

/** Where each task's response schema lives in the 3.x trees. */
export const RESPONSE_SCHEMA_PATHS: Record<(typeof SELLER_TASKS)[number], string> = {
  get_adcp_capabilities: 'protocol/get-adcp-capabilities-response.json',
  get_products: 'media-buy/get-products-response.json',
  list_creative_formats: 'media-buy/list-creative-formats-response.json',
  list_creatives: 'creative/list-creatives-response.json',
  get_media_buys: 'media-buy/get-media-buys-response.json',
  get_media_buy_delivery: 'media-buy/get-media-buy-delivery-response.json',
  get_signals: 'signals/get-signals-response.json',
  create_media_buy: 'media-buy/create-media-buy-response.json',
  sync_creatives: 'creative/sync-creatives-response.json',
  update_media_buy: 'media-buy/update-media-buy-response.json',
  provide_performance_feedback: 'media-buy/provide-performance-feedback-response.json',
  activate_signal: 'signals/activate-signal-response.json',
};

/** Minimal valid success payloads under AdCP 3.0 (3.1 adds what `minimal31` adds). */
export function minimal30(): Record<(typeof SELLER_TASKS)[number], Record<string, unknown>> {
  return {
    get_adcp_capabilities: { adcp: { major_versions: [3], idempotency: { supported: false } }, supported_protocols: ['media_buy'] },
    get_products: { products: [] },
    list_creative_formats: { formats: [] },
    list_creatives: { query_summary: { total_matching: 0, returned: 0 }, pagination: { has_more: false }, creatives: [] },
    get_media_buys: { media_buys: [] },
    get_media_buy_delivery: {
      reporting_period: { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' },
      currency: 'USD',
      media_buy_deliveries: [],
    },
    get_signals: { signals: [] },
    create_media_buy: { media_buy_id: 'mb_1', packages: [] },
    sync_creatives: { creatives: [] },
    update_media_buy: { media_buy_id: 'mb_1' },
    provide_performance_feedback: { success: true },
    activate_signal: { deployments: [] },
  };
}

/** 3.1 requires `status` on responses, `cache_scope` on discovery answers and more on create_media_buy. */
export function minimal31(): Record<(typeof SELLER_TASKS)[number], Record<string, unknown>> {
  const base = minimal30();
  const out = {} as Record<(typeof SELLER_TASKS)[number], Record<string, unknown>>;
  for (const task of SELLER_TASKS) out[task] = { status: 'completed', ...base[task] };
  out.get_products.cache_scope = 'public';
  out.get_signals.cache_scope = 'public';
  out.create_media_buy.confirmed_at = '2026-01-01T00:00:00Z';
  out.create_media_buy.revision = 1;
  out.update_media_buy.revision = 2;
  return out;
}

export function exchange(tool: string, structuredContent: unknown, extra: Partial<Exchange> = {}): Exchange {
  return {
    agent: 'test',
    tool,
    intent: 'valid',
    request: { name: tool, arguments: {} },
    outcome: { kind: 'result', result: { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent } },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    ...extra,
  };
}

export function capture(options: { adcpVersion?: string; exchanges?: Exchange[]; tools?: string[] } = {}): AgentCapture {
  return {
    agent: {
      name: 'test',
      transport: 'stdio',
      production: false,
      sandbox: true,
      ...(options.adcpVersion ? { adcpVersion: options.adcpVersion } : {}),
    },
    initialize: { ok: true, protocolVersion: '2025-11-25', serverInfo: { name: 'test', version: '0' }, durationMs: 1 },
    toolsList: { ok: true, tools: (options.tools ?? []).map((name) => ({ name, inputSchema: { type: 'object' } })), pages: 1 },
    exchanges: options.exchanges ?? [],
  };
}
