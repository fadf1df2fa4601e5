// What the auth checks share: the record of a scenario run in an HTTP session of its own (no credentials,
// or a wrong one), or the verdict that stands in for it — not-applicable for a stdio agent, the scenario's
// own reason when it did not run.
import type { AgentCapture, ScenarioRecord } from '../../record/exchange.ts';
import { notApplicable, type AgentVerdict } from '../check.ts';
import { about, notRun, scenarioRecord } from '../scenario-view.ts';

export interface AuthSession {
  record: ScenarioRecord;
  /** Its index in the capture's scenarios (for pointers). */
  index: number;
  /** The credential headers it left out or replaced, for subjects (`Authorization`). */
  headers: string;
}

/** The session's record, or the verdicts to return instead. `fallback` names the headers when the record does not. */
export function authSession(a: AgentCapture, name: string, fallback: string): AuthSession | { verdicts: AgentVerdict[] } {
  if (!scenarioRecord(a, name) && a.agent?.transport === 'stdio')
    return { verdicts: about(name, notApplicable('not an HTTP agent: credentials are HTTP headers')) };
  const skipped = notRun(a, name);
  if (skipped) return { verdicts: about(name, skipped) };
  const { record, index } = scenarioRecord(a, name)!;
  const listed = Array.isArray(record.withheld) && record.withheld.length ? record.withheld.map((h) => String(h)).join(', ') : '';
  return { record, index, headers: listed || fallback };
}
