// The `inputSchema` each tool advertises, and the seller validates against (validate-input.ts).
// Compact hand-written JSON Schemas covering the fields this seller reads, following the AdCP 3.0 /
// 3.1 request schemas; other request fields are accepted (additionalProperties) for forward
// compatibility. All are object schemas in the common subset of draft-07 and 2020-12.

import { pollInputProperties, POLLING_TOOLS } from './tasks.ts';

type Schema = Record<string, unknown>;

const object = (properties: Record<string, Schema>, extra: Schema = {}): Schema => ({
  type: 'object',
  properties: {
    context: { type: 'object', description: 'Opaque caller data, echoed unchanged in the response.' },
    ext: { type: 'object' },
    adcp_version: { type: 'string', pattern: '^\\d+\\.\\d+(-[a-zA-Z0-9.-]+)?$' },
    adcp_major_version: { type: 'integer', minimum: 1, maximum: 99 },
    // Envelope fields every tool accepts, reads included, and ignores when it does not use them
    // (security.mdx "Server-side tool wrapper conformance"; idempotency_key too, undeclared on reads).
    context_id: { type: 'string' },
    governance_context: { type: 'string' },
    push_notification_config: { type: 'object' },
    ...properties,
  },
  additionalProperties: true,
  ...extra,
});

/** AdCP core/pagination-request.json. */
const pagination: Schema = {
  type: 'object',
  properties: { max_results: { type: 'integer', minimum: 1, maximum: 100 }, cursor: { type: 'string', minLength: 1, maxLength: 4096 } },
  additionalProperties: false,
};
const stringArray: Schema = { type: 'array', items: { type: 'string', minLength: 1 } };
const idempotencyKey: Schema = { type: 'string', pattern: '^[A-Za-z0-9_.:-]{16,255}$' };
const accountRef: Schema = { type: 'object' };
const brandRef: Schema = { type: 'object' };
const formatId: Schema = {
  type: 'object',
  properties: { agent_url: { type: 'string', minLength: 1 }, id: { type: 'string', minLength: 1 } },
  required: ['agent_url', 'id'],
};
/** A package's fields the seller keeps and echoes (targeting, terms) and its creative assignments. */
const packageExtras: Record<string, Schema> = {
  targeting_overlay: { type: 'object' },
  measurement_terms: { type: 'object' },
  creative_assignments: {
    type: 'array',
    items: { type: 'object', properties: { creative_id: { type: 'string', minLength: 1 } }, required: ['creative_id'] },
  },
};
/** enums/media-buy-status.json. */
const mediaBuyStatus: Schema = {
  type: 'string',
  enum: ['pending_creatives', 'pending_start', 'active', 'paused', 'completed', 'rejected', 'canceled'],
};

export const inputSchemas: Record<string, Schema> = {
  get_adcp_capabilities: object({ protocols: stringArray }),
  get_products: object(
    {
      buying_mode: { type: 'string', enum: ['brief', 'wholesale', 'refine'] },
      brief: { type: 'string' },
      // get_products.mdx "Refine array": change requests scoped to the request, a product or a proposal.
      refine: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            scope: { type: 'string', enum: ['request', 'product', 'proposal'] },
            product_id: { type: 'string', minLength: 1 },
            proposal_id: { type: 'string', minLength: 1 },
            action: { type: 'string' },
            ask: { type: 'string' },
          },
          required: ['scope'],
        },
      },
      filters: { type: 'object' },
      account: accountRef,
      brand: brandRef,
      pagination,
    },
    { required: ['buying_mode'] },
  ),
  list_creative_formats: object({ format_ids: { type: 'array', items: formatId }, name_search: { type: 'string' }, pagination }),
  list_creatives: object({ filters: { type: 'object' }, pagination, account: accountRef }),
  get_media_buys: object({
    media_buy_ids: stringArray,
    account: accountRef,
    status_filter: { anyOf: [mediaBuyStatus, { type: 'array', items: mediaBuyStatus, minItems: 1 }] },
    pagination,
  }),
  get_media_buy_delivery: object({
    media_buy_ids: stringArray,
    start_date: { type: 'string', format: 'date' },
    end_date: { type: 'string', format: 'date' },
    account: accountRef,
  }),
  get_signals: object(
    {
      signal_spec: { type: 'string', minLength: 1 },
      signal_ids: { type: 'array' },
      filters: { type: 'object' },
      account: accountRef,
      pagination,
    },
    { anyOf: [{ required: ['signal_spec'] }, { required: ['signal_ids'] }] },
  ),
  create_media_buy: object(
    {
      idempotency_key: idempotencyKey,
      account: accountRef,
      brand: brandRef,
      start_time: { type: 'string', minLength: 1 },
      end_time: { type: 'string', format: 'date-time' },
      paused: { type: 'boolean' },
      // Proposal mode: execute a proposal from get_products instead of listing packages.
      proposal_id: { type: 'string', minLength: 1 },
      total_budget: {
        type: 'object',
        properties: { amount: { type: 'number', minimum: 0 }, currency: { type: 'string' } },
        required: ['amount'],
      },
      packages: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            product_id: { type: 'string', minLength: 1 },
            pricing_option_id: { type: 'string', minLength: 1 },
            budget: { type: 'number', exclusiveMinimum: 0 },
            bid_price: { type: 'number', minimum: 0 },
            ...packageExtras,
          },
          required: ['product_id', 'pricing_option_id', 'budget'],
        },
      },
    },
    {
      required: ['idempotency_key', 'account', 'brand', 'start_time', 'end_time'],
      anyOf: [{ required: ['packages'] }, { required: ['proposal_id', 'total_budget'] }],
    },
  ),
  sync_creatives: object(
    {
      idempotency_key: idempotencyKey,
      account: accountRef,
      dry_run: { type: 'boolean' },
      // Bulk creative → package assignment (sync-creatives-request.json `assignments`).
      assignments: {
        type: 'array',
        items: {
          type: 'object',
          properties: { creative_id: { type: 'string', minLength: 1 }, package_id: { type: 'string', minLength: 1 } },
          required: ['creative_id', 'package_id'],
        },
      },
      creatives: {
        type: 'array',
        minItems: 1,
        maxItems: 100,
        items: {
          type: 'object',
          properties: { creative_id: { type: 'string', minLength: 1 }, name: { type: 'string' }, format_id: formatId },
          required: ['creative_id', 'format_id'],
        },
      },
    },
    { required: ['idempotency_key', 'account', 'creatives'] },
  ),
  update_media_buy: object(
    {
      idempotency_key: idempotencyKey,
      account: accountRef,
      media_buy_id: { type: 'string', minLength: 1 },
      revision: { type: 'integer', minimum: 1 },
      paused: { type: 'boolean' },
      canceled: { type: 'boolean' },
      cancellation_reason: { type: 'string' },
      start_time: { type: 'string', minLength: 1 },
      end_time: { type: 'string', format: 'date-time' },
      packages: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            package_id: { type: 'string', minLength: 1 },
            budget: { type: 'number', minimum: 0 },
            paused: { type: 'boolean' },
            ...packageExtras,
          },
          required: ['package_id'],
        },
      },
    },
    { required: ['idempotency_key', 'account', 'media_buy_id'] },
  ),
  provide_performance_feedback: object(
    {
      idempotency_key: idempotencyKey,
      media_buy_id: { type: 'string', minLength: 1 },
      measurement_period: { type: 'object' },
      performance_index: { type: 'number', minimum: 0 },
      package_id: { type: 'string' },
      creative_id: { type: 'string' },
      metric_type: { type: 'string' },
      feedback_source: { type: 'string' },
    },
    { required: ['idempotency_key', 'media_buy_id', 'measurement_period', 'performance_index'] },
  ),
  activate_signal: object(
    {
      idempotency_key: idempotencyKey,
      account: accountRef,
      action: { type: 'string', enum: ['activate', 'deactivate'] },
      signal_agent_segment_id: { type: 'string', minLength: 1 },
      pricing_option_id: { type: 'string' },
      destinations: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            type: { type: 'string', enum: ['platform', 'agent'] },
            platform: { type: 'string' },
            agent_url: { type: 'string' },
          },
          required: ['type'],
        },
      },
    },
    { required: ['idempotency_key', 'signal_agent_segment_id', 'destinations'] },
  ),
  // The polling tool and its alias (tasks-get-request.json): one input shape.
  ...Object.fromEntries(POLLING_TOOLS.map((name) => [name, object({ ...pollInputProperties }, { required: ['task_id'] })])),
};
