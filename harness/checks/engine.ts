// The check engine over the whole catalog: run-checks.ts runs any list of checks; this module binds it
// to the catalog (and so loads every check module).
import type { AgentCapture } from '../record/exchange.ts';
import type { Check, CheckContext, Outcome } from './check.ts';
import { catalog } from './catalog.ts';
import { judgeChecks } from './run-checks.ts';

export * from './run-checks.ts';

/** Every outcome of one agent: catalog order, then call order. `select` narrows the checks run. */
export function judgeAgent(
  capture: AgentCapture,
  ctx: CheckContext,
  select?: (checkId: string) => boolean,
  checks: readonly Check[] = catalog,
): Outcome[] {
  return judgeChecks(checks, capture, ctx, select);
}
