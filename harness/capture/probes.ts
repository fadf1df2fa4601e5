// The calls the harness makes when the config names none: the safe, read-only AdCP tasks the agent
// lists (each a VALID request under the official AdCP 3.x request schema), one deliberately invalid
// call for the error path, and the mutating tasks only for sandbox agents.
import { randomUUID } from 'node:crypto';
import { ACCOUNT_TASKS, PROBE_TASKS } from '../adcp-tasks.ts';
import type { AgentConfig, Probe } from '../config/types.ts';

const BRIEF = 'Conformance probe: display and online video for a sports-equipment launch in the US, next quarter.';
const SANDBOX_DOMAIN = 'conformance-test.example';

/** The valid arguments of the read-only tasks a default probe calls; a task not here is sent `{}`. */
const PROBE_ARGUMENTS: Readonly<Record<string, () => Record<string, unknown>>> = {
  get_products: () => ({ buying_mode: 'brief', brief: BRIEF }),
  // get_media_buy_delivery: no field is required (3.0.6 and 3.1.x): without ids or dates the seller
  // reports all accessible buys. get_signals: 3.0 requires signal_spec or signal_ids.
  get_signals: () => ({ signal_spec: 'Adults 25-54 interested in outdoor sports' }),
};

/** Read-only tasks, in call order (`get_adcp_capabilities` first: it tells the AdCP version). */
const READ_ONLY: ReadonlyArray<{ tool: string; arguments: () => Record<string, unknown> }> = PROBE_TASKS.map((tool) => ({
  tool,
  arguments: Object.hasOwn(PROBE_ARGUMENTS, tool) ? PROBE_ARGUMENTS[tool]! : () => ({}),
}));

/** The error-path probe: `buying_mode` must be one of brief|wholesale|refine, never a number. */
export const INVALID_PROBE: Probe = { tool: 'get_products', arguments: { buying_mode: 42, brief: BRIEF }, intent: 'invalid' };

/** The brand every mutating probe names. */
const SANDBOX_BRAND = { domain: SANDBOX_DOMAIN };

/**
 * The account reference a call names: the agent's configured `account`, else a natural-key sandbox
 * reference of the harness's own (core/account-ref.json: brand + operator + sandbox: true).
 */
export function accountFor(agent?: Pick<AgentConfig, 'account'>): Record<string, unknown> {
  return agent?.account ? structuredClone(agent.account) : { brand: { ...SANDBOX_BRAND }, operator: SANDBOX_DOMAIN, sandbox: true };
}

/** Whether the account a call names is the harness's own stand-in (the reports say so). */
export const usesOwnAccount = (agent: Pick<AgentConfig, 'account'>): boolean => agent.account === undefined;

/**
 * The arguments of a call, with the agent's configured `account` added where the task takes one
 * (adcp-tasks.ts `takesAccount`) and the arguments name none, as a NEW object. Without a configured
 * account, nothing is added: read-only calls then name no account, as a buyer new to the seller would.
 */
export function withAccount(tool: string, args: Record<string, unknown>, agent: Pick<AgentConfig, 'account'>): Record<string, unknown> {
  if (agent.account === undefined || !ACCOUNT_TASKS.has(tool) || Object.hasOwn(args, 'account')) return args;
  return { ...args, account: accountFor(agent) };
}

/**
 * Mutating tasks, called only when the agent is marked `sandbox` (sync with `dry_run`). create_media_buy
 * is not among them: the idempotency and unknown-reference scenarios (scenarios.ts) make those calls,
 * booking a product the seller itself offered.
 */
function sandboxProbes(agent: AgentConfig): Probe[] {
  const account = accountFor(agent);
  return [
    {
      tool: 'sync_creatives',
      arguments: {
        idempotency_key: randomUUID(),
        account,
        dry_run: true,
        creatives: [
          {
            creative_id: 'conformance_probe_creative',
            name: 'Conformance probe creative',
            format_id: { agent_url: 'https://creative.adcontextprotocol.org', id: 'display_static' },
            assets: {
              image: { asset_type: 'image', url: `https://${SANDBOX_DOMAIN}/banner.png`, width: 300, height: 250 },
            },
          },
        ],
      },
    },
  ];
}

/** The product a create_media_buy probe books (a product the seller offered, else placeholders it will not know). */
export interface BookedProduct {
  productId: string;
  pricingOptionId: string;
  bidPrice?: number;
  minSpend?: number;
}

const PLACEHOLDER_PRODUCT: BookedProduct = { productId: 'conformance_probe_product', pricingOptionId: 'conformance_probe_pricing' };

/** A valid create_media_buy request (AdCP 3.x): a fresh key, one package, a flight starting in a week. */
export function createMediaBuyArguments(
  product: BookedProduct = PLACEHOLDER_PRODUCT,
  agent?: Pick<AgentConfig, 'account'>,
): Record<string, unknown> {
  const account = accountFor(agent);
  const brand = { ...SANDBOX_BRAND };
  const now = Date.now();
  const day = 24 * 3600 * 1000;
  return {
    idempotency_key: randomUUID(),
    account,
    brand,
    start_time: new Date(now + 7 * day).toISOString(),
    end_time: new Date(now + 37 * day).toISOString(),
    packages: [
      {
        product_id: product.productId,
        pricing_option_id: product.pricingOptionId,
        budget: Math.max(100, Math.ceil(product.minSpend ?? 0)),
        ...(product.bidPrice !== undefined ? { bid_price: product.bidPrice } : {}),
      },
    ],
  };
}

/** An update_media_buy request (AdCP 3.x) pausing the buy `mediaBuyId`. */
export function updateMediaBuyArguments(mediaBuyId: string, agent?: Pick<AgentConfig, 'account'>): Record<string, unknown> {
  return { idempotency_key: randomUUID(), account: accountFor(agent), media_buy_id: mediaBuyId, paused: true };
}

/** The default (valid) arguments of a read-only task, as its default probe sends them. */
export function defaultArguments(tool: string): Record<string, unknown> | undefined {
  return READ_ONLY.find((p) => p.tool === tool)?.arguments();
}

export function defaultProbes(tools: ReadonlyArray<{ name: string }>, agent: AgentConfig): Probe[] {
  const listed = new Set(tools.map((t) => t.name));
  const probes: Probe[] = READ_ONLY.filter((p) => listed.has(p.tool)).map((p) => ({
    tool: p.tool,
    arguments: p.arguments(),
    intent: 'valid',
  }));
  if (listed.has(INVALID_PROBE.tool)) probes.push({ ...INVALID_PROBE, arguments: { ...INVALID_PROBE.arguments } });
  if (agent.sandbox) {
    for (const p of sandboxProbes(agent)) if (listed.has(p.tool)) probes.push({ ...p, intent: 'valid' });
  }
  return probes;
}

/** A fresh correlation id: unique per call, readable in a report. */
export function correlationId(agent: string, index: number): string {
  return `adcp-conformance.${agent}.${index}.${randomUUID()}`;
}

/**
 * The probe's arguments with `context.correlation_id` set, as a NEW object (config-owned arguments are
 * never mutated). An existing plain-object `context` keeps its other keys.
 */
export function withContext(args: Record<string, unknown>, id: string): Record<string, unknown> {
  const prior = args['context'];
  const context =
    prior !== null && typeof prior === 'object' && !Array.isArray(prior)
      ? { ...(prior as Record<string, unknown>), correlation_id: id }
      : { correlation_id: id };
  return { ...args, context };
}
