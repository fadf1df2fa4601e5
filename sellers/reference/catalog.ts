// The reference seller's synthetic inventory: a few products, creative formats and signals of a
// fictional sports publisher. Every object here validates inside the official AdCP 3.0 and 3.1.19
// response schemas at the release served (test/sellers/releases.test.ts; tools.ts leaves out the
// 3.1-only fields, such as signal_ref, when serving 3.0). Plain data: handlers copy what they return.

export const SELLER_NAME = 'adcp-conformance reference seller';
export const SELLER_VERSION = '0.1.0';
export const PUBLISHER_DOMAIN = 'sports.reference-seller.example';
export const CREATIVE_AGENT_URL = 'https://creative.adcontextprotocol.org';
export const CURRENCY = 'USD';
export const SIGNALS_AGENT_URL = 'https://sports.reference-seller.example/mcp';

const reportingCapabilities = {
  available_reporting_frequencies: ['daily'],
  expected_delay_minutes: 240,
  timezone: 'UTC',
  supports_webhooks: false,
  available_metrics: ['impressions', 'spend', 'clicks', 'ctr'],
  date_range_support: 'date_range',
};

export const formats = [
  {
    format_id: { agent_url: CREATIVE_AGENT_URL, id: 'display_static' },
    name: 'Static display banner',
    description: 'A single image creative (IAB 300x250 or 728x90).',
  },
  {
    format_id: { agent_url: CREATIVE_AGENT_URL, id: 'video_standard' },
    name: 'Standard in-stream video',
    description: 'A 15 or 30 second in-stream video hosted by the buyer.',
  },
];

export const products = [
  {
    product_id: 'sports_display_ros',
    name: 'Sports run-of-site display',
    description: 'Non-guaranteed display across every sports section page.',
    publisher_properties: [{ publisher_domain: PUBLISHER_DOMAIN, selection_type: 'all' }],
    format_ids: [formats[0]!.format_id],
    delivery_type: 'non_guaranteed',
    pricing_options: [{ pricing_option_id: 'ros_cpm_auction', pricing_model: 'cpm', currency: CURRENCY, floor_price: 4.5 }],
    reporting_capabilities: reportingCapabilities,
  },
  {
    product_id: 'sports_video_premium',
    name: 'Premium sports video',
    description: 'Guaranteed pre-roll on live match highlights.',
    publisher_properties: [{ publisher_domain: PUBLISHER_DOMAIN, selection_type: 'all' }],
    format_ids: [formats[1]!.format_id],
    delivery_type: 'guaranteed',
    pricing_options: [{ pricing_option_id: 'video_cpm_fixed', pricing_model: 'cpm', currency: CURRENCY, fixed_price: 28 }],
    reporting_capabilities: reportingCapabilities,
  },
  {
    // The corpus's fictional product (AdCP compliance storyboards, universal/storyboard-schema.yaml): storyboards
    // book `test-product` with pricing option `default` or `test-pricing`, and expect sellers to have seeded it.
    product_id: 'test-product',
    name: 'Compliance test product',
    description: 'A non-guaranteed display product seeded for the AdCP compliance storyboards.',
    publisher_properties: [{ publisher_domain: PUBLISHER_DOMAIN, selection_type: 'all' }],
    format_ids: [formats[0]!.format_id],
    delivery_type: 'non_guaranteed',
    pricing_options: [
      { pricing_option_id: 'default', pricing_model: 'cpm', currency: CURRENCY, floor_price: 2 },
      { pricing_option_id: 'test-pricing', pricing_model: 'cpm', currency: CURRENCY, floor_price: 2 },
    ],
    reporting_capabilities: reportingCapabilities,
  },
  {
    // The corpus's refine fixture (media_buy_seller/refine_products names it literally; later corpora seed it
    // through their `fixtures:` block as a non-guaranteed video product with this pricing option).
    product_id: 'sports_preroll_q2',
    name: 'Sports pre-roll (compliance fixture)',
    description: 'Non-guaranteed pre-roll on sports video, seeded for the AdCP compliance storyboards.',
    publisher_properties: [{ publisher_domain: PUBLISHER_DOMAIN, selection_type: 'all' }],
    format_ids: [formats[1]!.format_id],
    delivery_type: 'non_guaranteed',
    pricing_options: [{ pricing_option_id: 'cpm_non_guaranteed', pricing_model: 'cpm', currency: CURRENCY, floor_price: 22 }],
    reporting_capabilities: reportingCapabilities,
  },
];

export const signals = [
  {
    signal_agent_segment_id: 'rs_outdoor_enthusiasts',
    name: 'Outdoor sports enthusiasts',
    description: 'Readers of hiking, climbing and cycling coverage in the last 30 days.',
    value_type: 'binary',
    signal_type: 'owned',
    data_provider: SELLER_NAME,
    coverage_percentage: 12,
    signal_id: { source: 'agent', agent_url: SIGNALS_AGENT_URL, id: 'rs_outdoor_enthusiasts' },
    signal_ref: { scope: 'signal_source', signal_source_url: SIGNALS_AGENT_URL, signal_id: 'rs_outdoor_enthusiasts' },
    deployments: [],
    pricing_options: [{ pricing_option_id: 'rs_outdoor_cpm', model: 'cpm', cpm: 1.5, currency: CURRENCY }],
  },
  {
    signal_agent_segment_id: 'rs_match_day_viewers',
    name: 'Live match-day viewers',
    description: 'Readers of live match coverage and scores pages in the last 14 days.',
    value_type: 'binary',
    signal_type: 'owned',
    data_provider: SELLER_NAME,
    coverage_percentage: 18,
    signal_id: { source: 'agent', agent_url: SIGNALS_AGENT_URL, id: 'rs_match_day_viewers' },
    signal_ref: { scope: 'signal_source', signal_source_url: SIGNALS_AGENT_URL, signal_id: 'rs_match_day_viewers' },
    deployments: [],
    pricing_options: [{ pricing_option_id: 'rs_matchday_cpm', model: 'cpm', cpm: 2, currency: CURRENCY }],
  },
  {
    signal_agent_segment_id: 'rs_fantasy_players',
    name: 'Fantasy league players',
    description: 'Readers of fantasy league tips and injury news in the last 30 days.',
    value_type: 'binary',
    signal_type: 'owned',
    data_provider: SELLER_NAME,
    coverage_percentage: 7,
    signal_id: { source: 'agent', agent_url: SIGNALS_AGENT_URL, id: 'rs_fantasy_players' },
    signal_ref: { scope: 'signal_source', signal_source_url: SIGNALS_AGENT_URL, signal_id: 'rs_fantasy_players' },
    deployments: [],
    pricing_options: [{ pricing_option_id: 'rs_fantasy_cpm', model: 'cpm', cpm: 2.5, currency: CURRENCY }],
  },
  // The corpus's fictional signals (AdCP compliance test kit nova-motors, test-kits/nova-motors.yaml), seeded
  // like test-product: the signals storyboards activate these ids literally. Two owned segments, and one
  // the seller resells from a data provider's catalog (signal_id source `catalog`, its provenance
  // verifiable at data_provider_domain), so the seller is an owned and a marketplace signal agent.
  {
    signal_agent_segment_id: 'prism_high_ltv',
    name: 'High LTV Customers',
    description: 'High-value customers ranked by lifetime value, from loyalty program data.',
    value_type: 'binary',
    signal_type: 'owned',
    data_provider: SELLER_NAME,
    coverage_percentage: 12,
    signal_id: { source: 'agent', agent_url: SIGNALS_AGENT_URL, id: 'prism_high_ltv' },
    signal_ref: { scope: 'signal_source', signal_source_url: SIGNALS_AGENT_URL, signal_id: 'prism_high_ltv' },
    deployments: [],
    pricing_options: [
      { pricing_option_id: 'po_prism_flat_monthly', model: 'flat_fee', amount: 5000, period: 'monthly', currency: CURRENCY },
    ],
  },
  {
    signal_agent_segment_id: 'prism_cart_abandoner',
    name: 'Cart Abandoners',
    description: 'Shoppers who left items in their cart in the last 14 days.',
    value_type: 'binary',
    signal_type: 'owned',
    data_provider: SELLER_NAME,
    coverage_percentage: 18,
    signal_id: { source: 'agent', agent_url: SIGNALS_AGENT_URL, id: 'prism_cart_abandoner' },
    signal_ref: { scope: 'signal_source', signal_source_url: SIGNALS_AGENT_URL, signal_id: 'prism_cart_abandoner' },
    deployments: [],
    pricing_options: [{ pricing_option_id: 'po_prism_abandoner_cpm', model: 'cpm', cpm: 8, currency: CURRENCY }],
  },
  {
    signal_agent_segment_id: 'trident_likely_ev_buyers',
    name: 'Likely EV Buyers',
    description: 'In-market EV buyers with high purchase propensity (Trident Auto data, resold).',
    value_type: 'binary',
    signal_type: 'marketplace',
    data_provider: 'Trident Auto',
    coverage_percentage: 8,
    signal_id: { source: 'catalog', data_provider_domain: 'tridentauto.example', id: 'likely_ev_buyers' },
    signal_ref: { scope: 'data_provider', data_provider_domain: 'tridentauto.example', signal_id: 'likely_ev_buyers' },
    deployments: [],
    pricing_options: [{ pricing_option_id: 'po_trident_ev_cpm', model: 'cpm', cpm: 3.5, currency: CURRENCY }],
  },
];
