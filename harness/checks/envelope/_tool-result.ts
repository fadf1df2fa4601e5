// The raw tools/call result, for the envelope rules that judge every result, errors included
// (is-error-type, content-blocks, reserved-keys): a JSON-RPC error is not a tool result, and a call
// without an answer has nothing to judge.
import type { Exchange } from '../../record/exchange.ts';
import { notApplicable, type Verdict } from '../check.ts';
import { noAnswer } from '../views.ts';

export function toolResult(x: Exchange): { result: unknown } | { verdict: Verdict } {
  const outcome = x.outcome;
  if (outcome.kind === 'result') return { result: outcome.result };
  return { verdict: outcome.kind === 'transport-error' ? noAnswer() : notApplicable('a JSON-RPC error, not a tool result') };
}
