// The one table of AdCP task facts (a ground-floor module: it imports nothing of ours). Every list of
// AdCP task names the harness uses derives from it: which tasks have an official response schema, which
// only read, which write state, which answer without credentials, which a version pin is sent on, which
// are list-shaped, which each protocol requires. A number is a preference rank among the tasks that have
// the fact (1 first): the order a probe or scenario tries them in.
//
// The task names are those with an official response schema: the response files of the 3.0 and v2.5
// trees inside @adcp/sdk (schemas-data/<version>/<area>/<task-name>-response.json) and of AdCP 3.1,
// snake_cased. Checks that judge an AdCP payload (extractable, status, flat, …) apply to these tools
// only; any other tool a seller exposes is skipped with the reason, never judged as AdCP.

export interface AdcpTaskFacts {
  /** Only reads: safe to call by default, and to call again when re-verifying. */
  readonly readOnly?: true;
  /** Writes state (the release's manifest.json `mutating`): called on agents marked sandbox only. */
  readonly mutating?: true;
  /** A default probe calls it (rank = call order; get_adcp_capabilities first: it tells the AdCP version). */
  readonly probe?: number;
  /** A read a version pin is sent on (never get_adcp_capabilities: it is how a buyer discovers versions). */
  readonly pinnable?: number;
  /** List-shaped and paginated: the array of items and the field that identifies an item. */
  readonly list?: { readonly rank: number; readonly items: string; readonly id: string };
  /** A read a seller protects with credentials (discovery tasks are left out on purpose). */
  readonly protected?: number;
  /**
   * A public discovery task (AdCP authentication.mdx › Public Operations; security.mdx › Low-Risk
   * Operations): it answers without credentials, get_products possibly with less.
   */
  readonly discovery?: number;
  /** A read whose request takes `ext` (where the credential-in-arguments probe puts its bait). */
  readonly takesExt?: number;
  /**
   * Its request takes an `account` (core/account-ref.json) in AdCP 3.0 or 3.1: a call sends the agent's
   * configured account reference there (test/architecture/adcp-tasks.test.ts checks this against the schemas).
   */
  readonly takesAccount?: true;
  /**
   * Its request takes a `push_notification_config` (core/push-notification-config.json) in AdCP 3.0 or 3.1:
   * a call of a sandbox agent names the harness's webhook receiver there (test/architecture/push-tasks.test.ts
   * checks this against the schemas).
   */
  readonly takesPushNotification?: true;
  /** The protocols whose "Required tasks" row (protocol/required-tasks.mdx, 3.0 and 3.1) names it. */
  readonly requiredBy?: Readonly<Record<string, number>>;
  /**
   * The sandbox state flows (by scenario name) that cannot run without it: a flow is not applicable to an agent
   * that does not list it (rank = the order the reason names the missing tasks in).
   */
  readonly neededBy?: Readonly<Record<string, number>>;
}

export const ADCP_TASK_FACTS: Readonly<Record<string, AdcpTaskFacts>> = {
  // account
  get_account_financials: { takesAccount: true },
  list_accounts: { takesAccount: true },
  report_usage: {},
  sync_accounts: { takesPushNotification: true },
  sync_governance: {},
  // brand
  acquire_rights: { takesAccount: true, takesPushNotification: true },
  creative_approval: {},
  get_brand_identity: { requiredBy: { brand: 1 } },
  get_rights: {},
  update_rights: { takesAccount: true, takesPushNotification: true },
  search_brands: {},
  verify_brand_claim: {},
  verify_brand_claims: {},
  // collection
  create_collection_list: { takesAccount: true },
  delete_collection_list: { takesAccount: true },
  get_collection_list: { takesAccount: true },
  list_collection_lists: { takesAccount: true },
  update_collection_list: { takesAccount: true },
  // compliance
  comply_test_controller: {},
  // content standards
  calibrate_content: {},
  create_content_standards: {},
  get_content_standards: {},
  get_media_buy_artifacts: { takesAccount: true },
  list_content_standards: {},
  update_content_standards: {},
  validate_content_delivery: {},
  // creative
  get_creative_delivery: { readOnly: true, takesAccount: true },
  get_creative_features: { takesAccount: true },
  list_creative_formats: {
    readOnly: true,
    probe: 3,
    pinnable: 2,
    list: { rank: 2, items: 'formats', id: 'format_id' },
    discovery: 2,
    takesExt: 2,
    requiredBy: { media_buy: 2, creative: 1 },
    takesAccount: true,
  },
  list_creatives: {
    readOnly: true,
    probe: 4,
    pinnable: 4,
    list: { rank: 3, items: 'creatives', id: 'creative_id' },
    protected: 1,
    takesExt: 4,
    neededBy: { 'creative-library': 2 },
    takesAccount: true,
  },
  list_transformers: { takesAccount: true },
  preview_creative: {},
  sync_creatives: { mutating: true, neededBy: { 'creative-library': 1 }, takesAccount: true, takesPushNotification: true },
  validate_input: { takesAccount: true },
  build_creative: { takesAccount: true, takesPushNotification: true },
  // governance
  check_governance: {},
  get_plan_audit_logs: {},
  report_plan_outcome: {},
  sync_plans: {},
  // media buy
  create_media_buy: {
    mutating: true,
    requiredBy: { media_buy: 3 },
    neededBy: { 'media-buy-lifecycle': 1 },
    takesAccount: true,
    takesPushNotification: true,
  },
  get_media_buy_delivery: { readOnly: true, probe: 6, pinnable: 6, protected: 3, requiredBy: { media_buy: 6 }, takesAccount: true },
  get_media_buys: {
    readOnly: true,
    probe: 5,
    pinnable: 5,
    list: { rank: 5, items: 'media_buys', id: 'media_buy_id' },
    protected: 2,
    takesExt: 5,
    requiredBy: { media_buy: 5 },
    takesAccount: true,
  },
  get_products: {
    readOnly: true,
    probe: 2,
    pinnable: 1,
    list: { rank: 1, items: 'products', id: 'product_id' },
    discovery: 3,
    takesExt: 3,
    requiredBy: { media_buy: 1 },
    takesAccount: true,
    takesPushNotification: true,
  },
  list_authorized_properties: { readOnly: true },
  log_event: {},
  provide_performance_feedback: { mutating: true, requiredBy: { media_buy: 7 } },
  sync_audiences: { takesAccount: true },
  sync_catalogs: { takesAccount: true, takesPushNotification: true },
  sync_event_sources: { takesAccount: true },
  update_media_buy: {
    mutating: true,
    requiredBy: { media_buy: 4 },
    neededBy: { 'media-buy-lifecycle': 2 },
    takesAccount: true,
    takesPushNotification: true,
  },
  // property
  create_property_list: { takesAccount: true },
  delete_property_list: { takesAccount: true },
  get_property_list: { takesAccount: true },
  list_property_lists: { takesAccount: true },
  update_property_list: { takesAccount: true },
  validate_property_delivery: { takesAccount: true },
  // protocol
  get_adcp_capabilities: { readOnly: true, probe: 1, discovery: 1, takesExt: 1 },
  get_task_status: { takesAccount: true },
  list_tasks: { takesAccount: true },
  tasks_get: { takesAccount: true },
  tasks_list: { takesAccount: true },
  // signals
  activate_signal: { mutating: true, requiredBy: { signals: 2 }, takesAccount: true },
  get_signals: {
    readOnly: true,
    probe: 7,
    pinnable: 3,
    list: { rank: 4, items: 'signals', id: 'signal_agent_segment_id' },
    protected: 4,
    takesExt: 6,
    requiredBy: { signals: 1 },
    takesAccount: true,
    takesPushNotification: true,
  },
  // sponsored intelligence
  si_get_offering: {},
  si_initiate_session: { mutating: true, requiredBy: { sponsored_intelligence: 1 } },
  si_send_message: { mutating: true, requiredBy: { sponsored_intelligence: 2 } },
  si_terminate_session: { mutating: true, requiredBy: { sponsored_intelligence: 3 } },
  // trusted match
  context_match: {},
  identity_match: {},
  provider_identity_match: {},
};

type RankedFact = 'probe' | 'pinnable' | 'protected' | 'discovery' | 'takesExt';

/** The tasks that have a ranked fact, in its preference order. */
function ranked(fact: RankedFact): readonly string[] {
  return Object.keys(ADCP_TASK_FACTS)
    .filter((name) => ADCP_TASK_FACTS[name]![fact] !== undefined)
    .sort((a, b) => ADCP_TASK_FACTS[a]![fact]! - ADCP_TASK_FACTS[b]![fact]!);
}

export const ADCP_TASKS: ReadonlySet<string> = new Set(Object.keys(ADCP_TASK_FACTS));
/** AdCP tasks that only read. Every other tool may change the seller's state and is never called twice. */
export const READ_ONLY_TASKS: ReadonlySet<string> = new Set(Object.keys(ADCP_TASK_FACTS).filter((n) => ADCP_TASK_FACTS[n]!.readOnly));
/** The read-only tasks a default probe calls, in call order. */
export const PROBE_TASKS = ranked('probe');
/** Read-only tasks a pin is sent on, in the order the scenarios prefer them. */
export const PINNED_TASKS = ranked('pinnable');
/** Read-only tasks a seller protects, in the order the probe prefers them. */
export const PROTECTED_TASKS = ranked('protected');
/** The public discovery tasks, in the order the probe prefers them. */
export const DISCOVERY_TASKS = ranked('discovery');
/** Read-only tasks whose request takes `ext`, in the order the probe prefers them. */
export const CREDENTIAL_PROBE_TASKS = ranked('takesExt');

/** The tasks whose request takes an `account` reference (a configured `account` is sent on each). */
export const ACCOUNT_TASKS: ReadonlySet<string> = new Set(Object.keys(ADCP_TASK_FACTS).filter((n) => ADCP_TASK_FACTS[n]!.takesAccount));

/** The tasks whose request takes a `push_notification_config` (a sandbox agent's call names the receiver there). */
export const PUSH_NOTIFICATION_TASKS: ReadonlySet<string> = new Set(
  Object.keys(ADCP_TASK_FACTS).filter((n) => ADCP_TASK_FACTS[n]!.takesPushNotification),
);

export interface ListShape {
  tool: string;
  items: string;
  id: string;
}

/** The list-shaped tasks, in the order the pagination walk prefers them (the request schemas of all take `pagination`). */
export const LIST_SHAPES: readonly ListShape[] = Object.keys(ADCP_TASK_FACTS)
  .flatMap((tool) => {
    const list = ADCP_TASK_FACTS[tool]!.list;
    return list ? [{ tool, ...list }] : [];
  })
  .sort((a, b) => a.rank - b.rank)
  .map(({ tool, items, id }) => ({ tool, items, id }));

/** The tasks `protocol`'s Required row names, in the page's order, each with whether it writes state. */
export function requiredTasksOf(protocol: string): Array<{ name: string; mutating: boolean }> {
  return Object.keys(ADCP_TASK_FACTS)
    .filter((name) => ADCP_TASK_FACTS[name]!.requiredBy?.[protocol] !== undefined)
    .sort((a, b) => ADCP_TASK_FACTS[a]!.requiredBy![protocol]! - ADCP_TASK_FACTS[b]!.requiredBy![protocol]!)
    .map((name) => ({ name, mutating: ADCP_TASK_FACTS[name]!.mutating === true }));
}

/** The tasks the sandbox flow `flow` (its scenario name) cannot run without, in the order its reason names them. */
export function tasksNeededBy(flow: string): string[] {
  return Object.keys(ADCP_TASK_FACTS)
    .filter((name) => ADCP_TASK_FACTS[name]!.neededBy?.[flow] !== undefined)
    .sort((a, b) => ADCP_TASK_FACTS[a]!.neededBy![flow]! - ADCP_TASK_FACTS[b]!.neededBy![flow]!);
}

export function isAdcpTask(tool: unknown): boolean {
  return typeof tool === 'string' && ADCP_TASKS.has(tool);
}
