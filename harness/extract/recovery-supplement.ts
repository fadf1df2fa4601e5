// Error codes newer than the AdCP 3.0 schemas shipped inside @adcp/sdk, with their recovery class.
// Our own data (code → class), kept in step with the official `enums/error-code.json` enumMetadata:
// the 3.1.x additions, plus codes from releases after 3.1 that clients already meet on the wire.
// test/extract/recovery-table.test.ts proves every 3.1.19 code maps to the same class here.
import type { Recovery } from './recovery-types.ts';

const correctable = [
  // 3.1.x
  'ACTION_NOT_ALLOWED',
  'AUTHORIZATION_REQUIRED',
  'AUTH_MISSING',
  'BILLING_NOT_PERMITTED_FOR_AGENT',
  'BILLING_NOT_SUPPORTED',
  'BRAND_REQUIRED',
  'BUDGET_CAP_REACHED',
  'CATALOG_LIMIT_EXCEEDED',
  'CREATIVE_INACCESSIBLE',
  'CREATIVE_VALUE_NOT_ALLOWED',
  'EVALUATOR_AGENT_NOT_ACCEPTED',
  'FEED_FETCH_FAILED',
  'FIELD_NOT_PERMITTED',
  'FORMAT_DECLARATION_DIVERGENT',
  'FORMAT_DECLARATION_V1_AMBIGUOUS',
  'FORMAT_DECLARATION_V1_LOSSY_MULTI_SIZE',
  'FORMAT_NOT_SUPPORTED',
  'FORMAT_OPTION_UNRESOLVED',
  'FORMAT_PROJECTION_FAILED',
  'INVALID_FEED_FORMAT',
  'ITEM_VALIDATION_FAILED',
  'MULTI_FINALIZE_UNSUPPORTED',
  'PAYMENT_TERMS_NOT_SUPPORTED',
  'PIXEL_TRACKER_LOSSY_DOWNGRADE',
  'PIXEL_TRACKER_UPGRADE_INFERRED',
  'PRIVATE_FIELD_IN_PUBLIC_PLACEMENT',
  'PROPOSAL_NOT_FOUND',
  'PROVENANCE_CLAIM_CONTRADICTED',
  'PROVENANCE_DIGITAL_SOURCE_TYPE_MISSING',
  'PROVENANCE_DISCLOSURE_MISSING',
  'PROVENANCE_EMBEDDED_MISSING',
  'PROVENANCE_REQUIRED',
  'PROVENANCE_VERIFIER_NOT_ACCEPTED',
  'READ_ONLY_SCOPE',
  'SCOPE_INSUFFICIENT',
  'SIGNAL_TARGETING_INCOMPATIBLE',
  'UNPRICEABLE_OUTPUT',
  'UNSUPPORTED_GRANULARITY',
  'UNSUPPORTED_PROVISIONING',
  // after 3.1 (transport-errors page, official vectors)
  'ACCOUNT_MOVED',
  'ACCOUNT_IDENTITY_CONFLICT',
] as const;

const transient = ['IDEMPOTENCY_IN_FLIGHT', 'STALE_RESPONSE'] as const;

const terminal = [
  'AGENT_BLOCKED',
  'AGENT_SUSPENDED',
  'AUTH_INVALID',
  'BILLING_OUT_OF_BAND',
  'CONFIGURATION_ERROR',
  'CREDENTIAL_IN_ARGS',
] as const;

export const RECOVERY_SUPPLEMENT: ReadonlyArray<readonly [string, Recovery]> = [
  ...correctable.map((code) => [code, 'correctable'] as const),
  ...transient.map((code) => [code, 'transient'] as const),
  ...terminal.map((code) => [code, 'terminal'] as const),
];
