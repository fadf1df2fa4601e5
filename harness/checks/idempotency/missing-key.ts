// idempotency.missing-key — a mutating request without idempotency_key, sent to a seller that declares
// idempotency support, is refused with an AdCP error the buyer can correct (recovery correctable; AdCP
// names INVALID_REQUEST or VALIDATION_ERROR) — never booked: without a key a retry would book twice. A
// JSON-RPC -32602 (the input schema requires the key) is such a refusal too; its shape is error.validation's.
import type { AgentCapture } from '../../record/exchange.ts';
import { STEP } from '../../capture/scenario-facts.ts';
import { defineCheck, fail, pass, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { answerOf, at, recoveryOf, type Step } from '../scenario-view.ts';
import { idempotencyStep, SUBJECT } from './_scenario.ts';

const WANT = 'a correctable AdCP error (e.g. INVALID_REQUEST naming idempotency_key)';
const INVALID_PARAMS = -32602;

function refused(s: Step): Verdict {
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success':
      return fail(at(s, '/result/isError'), WANT, 'a success: the request without idempotency_key was served');
    case 'bare-jsonrpc':
      // -32602 (invalid params): the key is required by the input schema, and the buyer can correct that.
      // Whether a schema refusal should be an AdCP error instead is error.validation's rule, not this one's.
      return s.x.outcome.kind === 'jsonrpc-error' && own(s.x.outcome.error, 'code') === INVALID_PARAMS
        ? pass()
        : fail(at(s, '/error'), WANT, answer.found);
  }
  const recovery = recoveryOf(answer.error, s.call);
  if ('verdict' in recovery) return recovery.verdict;
  if (recovery.recovery === 'correctable') return pass();
  const found = recovery.stated
    ? preview(recovery.recovery)
    : `absent, and code ${preview(own(answer.error, 'code'))} implies ${recovery.recovery}`;
  return fail(at(s, `${answer.pointer}/recovery`), 'correctable (add an idempotency_key and retry)', found);
}

export default defineCheck({
  id: 'idempotency.missing-key',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    'a mutating request without `idempotency_key`, to a seller declaring idempotency support, is refused with a correctable AdCP error',
  spec: {
    label: 'AdCP media-buy/create-media-buy-request.json (idempotency_key is required); get_adcp_capabilities · adcp.idempotency',
    url: 'https://adcontextprotocol.org/schemas/3.1.19/media-buy/create-media-buy-request.json',
  },
  fix: 'refuse a mutating request without a key: `{"adcp_error":{"code":"INVALID_REQUEST","message":"idempotency_key is required","field":"idempotency_key","recovery":"correctable"}}`',
  judge(a: AgentCapture): AgentVerdict[] {
    const found = idempotencyStep(a, STEP.missingKey, 'compare with');
    if ('verdicts' in found) return found.verdicts;
    return [{ subject: `${SUBJECT} (no idempotency_key)`, verdict: refused(found.step) }];
  },
});
