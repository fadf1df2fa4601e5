// error.unknown-reference — a request naming an id the seller never issued (a product to book, a media
// buy to update) gets an AdCP error (PRODUCT_NOT_FOUND, MEDIA_BUY_NOT_FOUND, …), never a success. The
// booking is otherwise the one that succeeded in the idempotency scenario, so the refusal can only be
// about the id. Any AdCP error passes: the code's shape is error.code's, the rest error.*'s.
import type { AgentCapture } from '../../record/exchange.ts';
import { SCENARIO, STEP, successPayload } from '../../capture/scenario-facts.ts';
import { defineCheck, fail, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { about, answerOf, at, notRun, scenarioSteps, type Step } from '../scenario-view.ts';

const WHAT: Record<string, { subject: string; want: string }> = {
  [STEP.unknownProduct]: {
    subject: 'create_media_buy (unknown product_id)',
    want: 'an AdCP error such as PRODUCT_NOT_FOUND (the product id was never issued)',
  },
  [STEP.unknownMediaBuy]: {
    subject: 'update_media_buy (unknown media_buy_id)',
    want: 'an AdCP error such as MEDIA_BUY_NOT_FOUND (the media buy id was never issued)',
  },
};

function refused(s: Step, want: string): Verdict {
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'adcp-error':
      return pass();
    case 'bare-jsonrpc':
      return fail(at(s, '/error'), want, answer.found);
    case 'success': {
      const id = own(successPayload(s.x), 'media_buy_id');
      return fail(
        at(s, '/result/isError'),
        want,
        `a success: the request was served${typeof id === 'string' ? ` (media_buy_id ${preview(id)})` : ''}`,
      );
    }
  }
}

export default defineCheck({
  id: 'error.unknown-reference',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title:
    'a request naming an id the seller never issued (product, media buy) gets an AdCP error such as PRODUCT_NOT_FOUND, never a success',
  spec: {
    label: 'AdCP enums/error-code.json (PRODUCT_NOT_FOUND, MEDIA_BUY_NOT_FOUND, REFERENCE_NOT_FOUND: recovery correctable)',
    url: 'https://adcontextprotocol.org/schemas/3.1.19/enums/error-code.json',
  },
  fix: 'look every referenced id up before acting: `{"adcp_error":{"code":"PRODUCT_NOT_FOUND","message":"…","recovery":"correctable"}}` for one you never issued',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = SCENARIO.unknownReference;
    const skipped = notRun(a, name);
    if (skipped) return about(name, skipped);
    const steps = scenarioSteps(a, name).filter((s) => WHAT[s.step] !== undefined);
    if (steps.length === 0) return about(name, untested('no call with an unknown id was made (the session ended first)'));
    return steps.map((s) => ({ subject: WHAT[s.step]!.subject, verdict: refused(s, WHAT[s.step]!.want) }));
  },
});
