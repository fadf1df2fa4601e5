// idempotency.error-not-cached — a request the seller refused stored nothing under its key: the same key,
// with the request corrected, executes. The walk books an unknown product under a fresh key (refused),
// then the valid booking under that key; a seller that cached the refusal answers the second with it, or
// with IDEMPOTENCY_CONFLICT, and the buyer's corrected request is locked out for the replay window.
import type { AgentCapture } from '../../record/exchange.ts';
import { isSuccess, STEP } from '../../capture/scenario-facts.ts';
import { defineCheck, failAcross, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { answerOf, at, recoveryOf, scenarioSteps, type Step } from '../scenario-view.ts';
import { SCENARIO } from '../../capture/scenario-facts.ts';
import { idempotencyStep, SUBJECT } from './_scenario.ts';

const WANT = 'the corrected booking executed (a refused request stores nothing under its key)';

function executed(refused: Step, retry: Step): Verdict {
  const answer = answerOf(retry.x, retry.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success':
      return pass();
    case 'bare-jsonrpc':
      return failAcross(at(retry, '/error'), WANT, `${answer.found} (after the refusal of call ${refused.call})`, [refused.call]);
  }
  const recovery = recoveryOf(answer.error, retry.call);
  // A transient refusal (rate limit, outage) says nothing about the key: nothing to judge.
  if (!('verdict' in recovery) && recovery.recovery === 'transient' && own(answer.error, 'code') !== 'IDEMPOTENCY_IN_FLIGHT')
    return untested(
      `the corrected booking (call ${retry.call}) got a transient error ${preview(own(answer.error, 'code'))}: try again later`,
    );
  return failAcross(
    at(retry, `${answer.pointer}/code`),
    WANT,
    `${preview(own(answer.error, 'code'))} under the key of the request refused at call ${refused.call}: ${preview(own(answer.error, 'message'))}`,
    [refused.call],
  );
}

export default defineCheck({
  id: 'idempotency.error-not-cached',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title: 'a refused request does not take its `idempotency_key`: the same key with the request corrected executes',
  spec: {
    label:
      'AdCP security · Idempotency, rule 3 ("Only successful responses are cached. On any error … the key is not stored. A retry re-executes.")',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L1/security',
  },
  fix: 'store a response under its key only when the task succeeded (completed or submitted); on any error release the key, so the corrected request under it executes',
  judge(a: AgentCapture): AgentVerdict[] {
    const found = idempotencyStep(a, STEP.errorFirst, 'refuse and retry after');
    if ('verdicts' in found) return found.verdicts;
    const refused = found.step;
    const subject = `${SUBJECT} (refused, then corrected under the same key)`;
    const first = answerOf(refused.x, refused.call);
    if (first.kind === 'none') return [{ subject, verdict: first.verdict }];
    if (isSuccess(refused.x))
      return [
        {
          subject,
          verdict: untested(
            `the booking naming an unknown product (call ${refused.call}) was served, so no refusal left a key to reuse: see error.unknown-reference`,
            undefined,
            refused.call,
          ),
        },
      ];
    const retry = scenarioSteps(a, SCENARIO.idempotency).find((s) => s.step === STEP.errorRetry);
    if (!retry) return [{ subject, verdict: untested(`the ${STEP.errorRetry} call was not made (the session ended first)`) }];
    return [{ subject, verdict: executed(refused, retry) }];
  },
});
