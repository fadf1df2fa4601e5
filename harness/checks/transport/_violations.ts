// The JSON-RPC rules a seller broke on the wire, as the capture recorded them (connect/call-tracker.ts),
// split by the check that owns each kind. An old recording without the field cannot say: untested.
import type { AgentCapture, ProtocolViolation, ProtocolViolationKind } from '../../record/exchange.ts';

/** The recorded violations of these kinds, or null when the capture predates violation recording. */
export function violationsOf(a: AgentCapture, kinds: readonly ProtocolViolationKind[]): ProtocolViolation[] | null {
  const all = a.protocolViolations;
  if (!Array.isArray(all)) return null;
  return all.filter((v) => kinds.includes(v.kind));
}

/** `3 violation(s): first (at tools/call x): message` */
export function describeViolations(found: readonly ProtocolViolation[]): string {
  const first = found[0];
  if (!first) return 'none';
  const at = first.at ? ` (at ${first.at})` : '';
  return `${found.length} violation(s); first${at}: ${first.message}`;
}
