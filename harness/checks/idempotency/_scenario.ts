// Shared by the idempotency.* checks: the idempotency scenario's original booking and the step each
// check judges, or the verdict that stands in when there is nothing to judge — the scenario did not run,
// the booking it replays did not succeed, or the seller does not say it deduplicates by key.
import type { AgentCapture } from '../../record/exchange.ts';
import { capabilityFacts, isSuccess, SCENARIO, STEP } from '../../capture/scenario-facts.ts';
import { notApplicable, untested, type AgentVerdict } from '../check.ts';
import { about, notRun, scenarioSteps, type Step } from '../scenario-view.ts';

export const SUBJECT = 'create_media_buy';

export function idempotencyStep(
  a: AgentCapture,
  step: string,
  what: string,
): { original: Step; step: Step } | { verdicts: AgentVerdict[] } {
  const found = idempotencySteps(a, [step], what);
  return 'verdicts' in found ? found : { original: found.original, step: found.steps[0]! };
}

/** As idempotencyStep, for a check that judges several steps together (each must have been made). */
export function idempotencySteps(
  a: AgentCapture,
  wanted: readonly string[],
  what: string,
): { original: Step; steps: Step[] } | { verdicts: AgentVerdict[] } {
  const name = SCENARIO.idempotency;
  const skipped = notRun(a, name);
  if (skipped) return { verdicts: about(SUBJECT, skipped) };
  const steps = scenarioSteps(a, name);
  const original = steps.find((s) => s.step === STEP.original);
  if (!original) return { verdicts: about(SUBJECT, untested('the original create_media_buy was not made (the session ended first)')) };
  if (!isSuccess(original.x)) {
    return {
      verdicts: about(
        SUBJECT,
        untested(
          `the original create_media_buy (call ${original.call}) did not succeed, so there is no booking to ${what}: see its outcomes`,
        ),
      ),
    };
  }
  const declared = capabilityFacts(a.exchanges).idempotency;
  if (declared !== 'supported') {
    const says =
      declared === 'unsupported'
        ? 'declares adcp.idempotency.supported: false'
        : 'does not declare adcp.idempotency (get_adcp_capabilities)';
    return { verdicts: about(SUBJECT, notApplicable(`the seller ${says}: it promises no replay window`)) };
  }
  const found: Step[] = [];
  for (const step of wanted) {
    const s = steps.find((x) => x.step === step);
    if (!s) return { verdicts: about(SUBJECT, untested(`the ${step} call was not made (the session ended first)`)) };
    found.push(s);
  }
  return { original, steps: found };
}
