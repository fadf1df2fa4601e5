// The AdCP task names (MCP tool names) that have an official response schema: the response files of the
// 3.0 and v2.5 trees inside @adcp/sdk (schemas-data/<version>/<area>/<task-name>-response.json) and of
// AdCP 3.1, snake_cased. Checks that judge an AdCP payload (extractable, status, flat, …) apply to these
// tools only; any other tool a seller exposes is skipped with the reason, never judged as AdCP.
export const ADCP_TASKS: ReadonlySet<string> = new Set([
  // account
  'get_account_financials',
  'list_accounts',
  'report_usage',
  'sync_accounts',
  'sync_governance',
  // brand
  'acquire_rights',
  'creative_approval',
  'get_brand_identity',
  'get_rights',
  'update_rights',
  'search_brands',
  'verify_brand_claim',
  'verify_brand_claims',
  // collection
  'create_collection_list',
  'delete_collection_list',
  'get_collection_list',
  'list_collection_lists',
  'update_collection_list',
  // compliance
  'comply_test_controller',
  // content standards
  'calibrate_content',
  'create_content_standards',
  'get_content_standards',
  'get_media_buy_artifacts',
  'list_content_standards',
  'update_content_standards',
  'validate_content_delivery',
  // creative
  'get_creative_delivery',
  'get_creative_features',
  'list_creative_formats',
  'list_creatives',
  'list_transformers',
  'preview_creative',
  'sync_creatives',
  'validate_input',
  'build_creative',
  // governance
  'check_governance',
  'get_plan_audit_logs',
  'report_plan_outcome',
  'sync_plans',
  // media buy
  'create_media_buy',
  'get_media_buy_delivery',
  'get_media_buys',
  'get_products',
  'list_authorized_properties',
  'log_event',
  'provide_performance_feedback',
  'sync_audiences',
  'sync_catalogs',
  'sync_event_sources',
  'update_media_buy',
  // property
  'create_property_list',
  'delete_property_list',
  'get_property_list',
  'list_property_lists',
  'update_property_list',
  'validate_property_delivery',
  // protocol
  'get_adcp_capabilities',
  'get_task_status',
  'list_tasks',
  'tasks_get',
  'tasks_list',
  // signals
  'activate_signal',
  'get_signals',
  // sponsored intelligence
  'si_get_offering',
  'si_initiate_session',
  'si_send_message',
  'si_terminate_session',
  // trusted match
  'context_match',
  'identity_match',
  'provider_identity_match',
]);

export function isAdcpTask(tool: unknown): boolean {
  return typeof tool === 'string' && ADCP_TASKS.has(tool);
}
