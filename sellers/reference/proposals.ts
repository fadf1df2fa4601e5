// The reference seller's proposals (media-buy/product-discovery/media-products.mdx "Proposals",
// get_products.mdx `refine`, create_media_buy.mdx proposal mode). A toy proposal engine: every brief gets
// the same two plans over the catalog. A plan over non-guaranteed products only is ready to buy (no
// `proposal_status`, get_products.mdx: "absent status is legacy ready-to-buy"); a plan with guaranteed
// inventory is a `draft` that must be finalized (refine `action: "finalize"`) into a `committed` hold
// before create_media_buy executes it. Holds live per seller state.
import { AdcpFailure } from './adcp-error.ts';
import * as catalog from './catalog.ts';
import { cloneJson, isPlainObject, type JsonObject } from './json.ts';

interface Plan {
  proposal_id: string;
  name: string;
  description: string;
  brief_alignment: string;
  allocations: Array<{ product_id: string; allocation_percentage: number; rationale: string }>;
}

const PLANS: readonly Plan[] = [
  {
    proposal_id: 'rs_balanced_reach',
    name: 'Balanced sports reach',
    description: 'Run-of-site sports display with a compliance-test display line: broad reach at auction prices.',
    brief_alignment: 'Reach across every sports section at auction prices, bookable at once.',
    allocations: [
      { product_id: 'sports_display_ros', allocation_percentage: 70, rationale: 'Broad reach across sports sections.' },
      { product_id: 'test-product', allocation_percentage: 30, rationale: 'Additional display reach.' },
    ],
  },
  {
    proposal_id: 'rs_premium_video',
    name: 'Premium match-highlights video',
    description: 'Guaranteed pre-roll on live match highlights.',
    brief_alignment: 'Guaranteed video impressions next to live sport.',
    allocations: [{ product_id: 'sports_video_premium', allocation_percentage: 100, rationale: 'Guaranteed premium video.' }],
  },
];

/** How long a finalized proposal holds its inventory. */
export const HOLD_SECONDS = 24 * 3600;

/** Committed holds per seller state: proposal_id → expires_at (ms). */
const holds = new WeakMap<object, Map<string, number>>();
const holdsOf = (state: object): Map<string, number> => {
  let map = holds.get(state);
  if (!map) holds.set(state, (map = new Map()));
  return map;
};

const guaranteed = (plan: Plan): boolean =>
  plan.allocations.some((a) => catalog.products.find((p) => p.product_id === a.product_id)?.delivery_type === 'guaranteed');

/** A plan as get_products shows it now: ready to buy, draft, or committed until its hold expires. */
function proposalView(plan: Plan, state: object, now: number): JsonObject {
  const held = holdsOf(state).get(plan.proposal_id);
  const base: JsonObject = { ...(cloneJson(plan) as unknown as JsonObject) };
  if (held !== undefined && held > now) return { ...base, proposal_status: 'committed', expires_at: new Date(held).toISOString() };
  return guaranteed(plan) ? { ...base, proposal_status: 'draft' } : base;
}

/** The proposals a brief gets. */
export function briefProposals(state: object, now = Date.now()): JsonObject[] {
  return PLANS.map((p) => proposalView(p, state, now));
}

function unknownProposal(release: string, field: string): AdcpFailure {
  return new AdcpFailure({
    // PROPOSAL_NOT_FOUND is 3.1's code (get_products.mdx, refinement.mdx); 3.0's enum has REFERENCE_NOT_FOUND.
    code: release === '3.0' ? 'REFERENCE_NOT_FOUND' : 'PROPOSAL_NOT_FOUND',
    message: 'No proposal with this proposal_id on this seller',
    recovery: 'correctable',
    field,
    suggestion: 'Use a proposal_id from a get_products brief answer.',
  });
}

export interface Refined {
  proposals: JsonObject[];
  refinement_applied: JsonObject[];
  omittedProducts: Set<string>;
}

/**
 * buying_mode "refine" (get_products.mdx "Refine array"): each entry acknowledged in order. Proposal
 * entries: include (the proposal again), omit, or finalize (a committed hold until expires_at). Free-text
 * asks are not re-planned by this seller: acknowledged `unable`, the proposal returned unchanged.
 */
export function refine(args: JsonObject, state: object, release: string, now = Date.now()): Refined {
  const entries = (Array.isArray(args['refine']) ? args['refine'] : []).filter(isPlainObject);
  const out: Refined = { proposals: [], refinement_applied: [], omittedProducts: new Set() };
  for (const [i, entry] of entries.entries()) {
    const scope = entry['scope'];
    const action = typeof entry['action'] === 'string' ? entry['action'] : 'include';
    const asked = typeof entry['ask'] === 'string';
    if (scope === 'proposal') {
      const plan = PLANS.find((p) => p.proposal_id === entry['proposal_id']);
      if (!plan) throw unknownProposal(release, `refine[${i}].proposal_id`);
      const ack = { scope, proposal_id: plan.proposal_id };
      if (action === 'omit') {
        out.refinement_applied.push({ ...ack, status: 'applied' });
        continue;
      }
      if (action === 'finalize') holdsOf(state).set(plan.proposal_id, now + HOLD_SECONDS * 1000);
      out.proposals.push(proposalView(plan, state, now));
      out.refinement_applied.push(
        asked && action !== 'finalize'
          ? { ...ack, status: 'unable', notes: 'This seller does not re-plan from free text: the proposal is unchanged.' }
          : { ...ack, status: 'applied' },
      );
    } else if (scope === 'product') {
      const product = catalog.products.find((p) => p.product_id === entry['product_id']);
      if (!product) {
        throw new AdcpFailure({
          code: 'PRODUCT_NOT_FOUND',
          message: 'A refine entry names a product this seller does not offer',
          recovery: 'correctable',
          field: `refine[${i}].product_id`,
          suggestion: 'Use a product_id from get_products.',
        });
      }
      if (action === 'omit') out.omittedProducts.add(product.product_id);
      out.refinement_applied.push({ scope, product_id: product.product_id, status: 'applied' });
    } else {
      out.refinement_applied.push({ scope: 'request', status: 'unable', notes: 'This seller does not interpret free-text asks.' });
    }
  }
  return out;
}

/**
 * create_media_buy in proposal mode: the packages the proposal's allocations make of `total_budget`.
 * A draft → PROPOSAL_NOT_COMMITTED; a hold past its expires_at → PROPOSAL_EXPIRED; unknown → not found.
 */
export function proposalPackages(args: JsonObject, state: object, release: string, now = Date.now()): JsonObject[] {
  const plan = PLANS.find((p) => p.proposal_id === args['proposal_id']);
  if (!plan) throw unknownProposal(release, 'proposal_id');
  const held = holdsOf(state).get(plan.proposal_id);
  if (held !== undefined && held <= now) {
    throw new AdcpFailure({
      code: 'PROPOSAL_EXPIRED',
      message: 'The proposal hold has expired',
      recovery: 'correctable',
      field: 'proposal_id',
      suggestion: 'Finalize the proposal again (get_products refine, action "finalize"), or re-discover with a brief.',
    });
  }
  if (held === undefined && guaranteed(plan)) {
    throw new AdcpFailure({
      code: 'PROPOSAL_NOT_COMMITTED',
      message: 'The proposal is a draft: finalize it before executing it',
      recovery: 'correctable',
      field: 'proposal_id',
      suggestion: 'Finalize it with get_products (buying_mode "refine", action "finalize"), then retry.',
    });
  }
  const budget = isPlainObject(args['total_budget']) ? args['total_budget'] : {};
  const amount = typeof budget['amount'] === 'number' ? budget['amount'] : NaN;
  if (!(amount > 0)) {
    throw new AdcpFailure({
      code: 'INVALID_REQUEST',
      message: 'A proposal is executed with a positive total_budget.amount',
      recovery: 'correctable',
      field: 'total_budget',
      suggestion: 'Send total_budget {amount, currency} with proposal_id.',
    });
  }
  return plan.allocations.map((a) => ({
    product_id: a.product_id,
    pricing_option_id: catalog.products.find((p) => p.product_id === a.product_id)!.pricing_options[0]!.pricing_option_id,
    budget: Math.round(amount * a.allocation_percentage) / 100,
  }));
}
