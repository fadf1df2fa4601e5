// The check catalog: every id of RULES.md §2, in that order, plus the ids this harness adds
// (`transport.call`, placed with its area). Ids are stable: add, never rename.
import type { Check } from './check.ts';
import { capabilityChecks } from './capabilities.ts';
import { envelopeChecks } from './envelope.ts';
import { errorChecks } from './error.ts';
import { schemaAgentChecks, schemaExchangeChecks } from './schema.ts';
import { call, transportAgentChecks } from './transport.ts';

export const catalog: readonly Check[] = Object.freeze([
  ...transportAgentChecks,
  call,
  ...envelopeChecks,
  ...errorChecks,
  ...schemaAgentChecks,
  ...schemaExchangeChecks,
  ...capabilityChecks,
]);

/** Ids this harness adds to RULES.md §2. */
export const HARNESS_ADDED_IDS: readonly string[] = ['transport.call'];

/** The `MUST*` rows of RULES.md §2: MUST or SHOULD depending on the MCP revision / AdCP version. */
const CONDITIONAL_IDS: ReadonlySet<string> = new Set(['envelope.structured-content', 'envelope.status']);

const byId = new Map(catalog.map((c) => [c.id, c]));

export function checkById(id: string): Check | undefined {
  return byId.get(id);
}

/** Severity as RULES.md prints it: MUST, SHOULD, or MUST* for the conditional rows. */
export function severityLabel(check: Check): 'MUST' | 'SHOULD' | 'MUST*' {
  return CONDITIONAL_IDS.has(check.id) ? 'MUST*' : check.severity;
}
