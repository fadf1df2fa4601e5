// idempotency.malformed-key — a create_media_buy whose idempotency_key breaks the schemas' format (here:
// shorter than 16 characters) is refused with INVALID_REQUEST before the cache is consulted, and books
// nothing. A JSON-RPC -32602 (the input schema refused it) is such a refusal too; its shape is
// error.validation's rule.
import type { AgentCapture } from '../../record/exchange.ts';
import { STEP, successPayload } from '../../capture/scenario-facts.ts';
import { defineCheck, fail, pass, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { answerOf, at, codeOf, type Step } from '../scenario-view.ts';
import { idempotencyStep, SUBJECT } from './_scenario.ts';

const WANT = 'INVALID_REQUEST (idempotency_key is shorter than the 16 characters the schema requires), nothing booked';
const INVALID_PARAMS = -32602;

function refused(s: Step): Verdict {
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success': {
      const id = own(successPayload(s.x), 'media_buy_id');
      return fail(
        at(s, '/result/isError'),
        WANT,
        `a success: the request was served${typeof id === 'string' ? ` (booked ${preview(id)})` : ''}`,
      );
    }
    case 'bare-jsonrpc':
      return s.x.outcome.kind === 'jsonrpc-error' && own(s.x.outcome.error, 'code') === INVALID_PARAMS
        ? pass()
        : fail(at(s, '/error'), WANT, answer.found);
  }
  const code = codeOf(answer.error, s.call);
  if ('verdict' in code) return code.verdict;
  return code.code === 'INVALID_REQUEST' ? pass() : fail(at(s, `${answer.pointer}/code`), 'INVALID_REQUEST', preview(code.code));
}

export default defineCheck({
  id: 'idempotency.malformed-key',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  requires: 'sandbox',
  title:
    'a mutating request with a malformed `idempotency_key` (shorter than 16 characters) is refused with INVALID_REQUEST and books nothing',
  spec: {
    label:
      'AdCP security · Idempotency, rule 1 ("A malformed request returns INVALID_REQUEST without ever touching the cache"); create-media-buy-request.json · idempotency_key ^[A-Za-z0-9_.:-]{16,255}$',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L1/security',
  },
  fix: 'validate idempotency_key against ^[A-Za-z0-9_.:-]{16,255}$ before the cache lookup and answer `{"adcp_error":{"code":"INVALID_REQUEST","message":"idempotency_key is malformed","field":"idempotency_key","recovery":"correctable"}}`',
  judge(a: AgentCapture): AgentVerdict[] {
    const found = idempotencyStep(a, STEP.malformedKey, 'compare with');
    if ('verdicts' in found) return found.verdicts;
    return [{ subject: `${SUBJECT} (malformed idempotency_key)`, verdict: refused(found.step) }];
  },
});
