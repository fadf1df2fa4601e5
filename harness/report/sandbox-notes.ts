// The words every report uses about an agent's sandbox session: the account its calls named, the state
// rules out of reach of a read-only run (one grouped line, with how to enable them) and what the sandbox
// flows created. One definition, so the terminal, summary.md, report.html, report.json and JUnit agree.
// Strings are already sanitized; renderers escape for their format.
import type { AgentFacts, CreatedObject } from './model.ts';

/** How to bring the state rules within reach: said once per agent that has any out of reach. */
export const ENABLE_STATE_RULES =
  'To judge them, point an agent at the seller\'s sandbox and mark it `sandbox: true` (the flows book media buys and sync creatives there, and clean up what they can), with `account` set to the sandbox account the seller expects — {"account_id": "…"}, or the natural key {"brand": {"domain": "…"}, "operator": "…", "sandbox": true}; a seller whose sandbox is driven by comply_test_controller must expose it on that endpoint.';

/** The account line: which AdCP account reference the agent's calls named. Null for reports made before it existed. */
export function accountLine(a: Pick<AgentFacts, 'account'>): string | null {
  const account = a.account;
  if (!account) return null;
  const refused = account.refusals?.length
    ? `; the seller refused ${account.refusals.map((r) => `${r.calls} call${r.calls === 1 ? '' : 's'} with ${r.code} (${r.tools.join(', ')})`).join(' and ')}`
    : '';
  return (
    (account.source === 'config'
      ? `account: ${account.reference} (config \`account\`), sent on every call whose task takes an account`
      : `account: none configured; read-only calls name none, sandbox flows the harness's own natural-key sandbox reference ${account.reference} (set \`account\` to the reference this seller expects)`) +
    refused
  );
}

/** The one grouped line on the state rules a read-only run could not judge (null when none). */
export function outOfReachLine(a: Pick<AgentFacts, 'stateRulesOutOfReach'>): string | null {
  const rules = a.stateRulesOutOfReach ?? [];
  if (!rules.length) return null;
  const n = rules.length;
  return `${n} state rule${n === 1 ? '' : 's'} out of reach (the agent is not marked sandbox, so ${n === 1 ? 'it was' : 'they were'} judged not-applicable): ${rules.join(', ')}`;
}

/** One created object in words: `media_buy mb_1 (idempotency, call 12): cleaned up`. */
export function createdText(c: CreatedObject): string {
  const where = c.call >= 0 ? `${c.scenario}, call ${c.call}` : c.scenario;
  const fate = c.cleanup === 'cleaned-up' ? 'cleaned up' : 'kept';
  return `${c.kind} ${c.id} (${where}): ${fate}${c.why ? `: ${c.why}` : ''}`;
}

/** The heading of the created-objects list, with how many were left out of it. */
export function createdHeading(a: Pick<AgentFacts, 'created' | 'createdOmitted'>): string | null {
  const n = (a.created?.length ?? 0) + (a.createdOmitted ?? 0);
  if (!n) return null;
  const kept = (a.created ?? []).filter((c) => c.cleanup === 'kept').length;
  return `created in the seller's sandbox: ${n} object${n === 1 ? '' : 's'}${kept ? ` (${kept} kept)` : ''}${a.createdOmitted ? `, ${a.createdOmitted} not listed` : ''}`;
}

/** Whether an agent has anything to say about its sandbox session. */
export function hasSandboxNotes(a: Pick<AgentFacts, 'account' | 'stateRulesOutOfReach' | 'created' | 'createdOmitted'>): boolean {
  return accountLine(a) !== null || outOfReachLine(a) !== null || createdHeading(a) !== null;
}
