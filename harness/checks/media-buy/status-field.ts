// media-buy.status-field — from AdCP 3.1 the buy's lifecycle state travels as `media_buy_status` on the
// booking and update answers: on the flat MCP wire a body-level `status` collides with the task status at
// the same key and is lost. A 3.1 seller that emits only the legacy `status` fails 3.1 certification.
import type { AgentCapture } from '../../record/exchange.ts';
import { MB_STEP, MEDIA_BUY_STATUSES } from '../../capture/media-buy-flow.ts';
import { isSuccess } from '../../capture/scenario-facts.ts';
import {
  defineCheck,
  fail,
  MUST_FROM_ADCP_3_1,
  notApplicable,
  pass,
  type AgentVerdict,
  type CheckContext,
  type Verdict,
} from '../check.ts';
import { own, preview } from '../../json.ts';
import { at, type Step } from '../scenario-view.ts';
import { payloadOrVerdict } from '../views.ts';
import { bookedBuy, lifecycle, servedAt31 } from './_flow.ts';

const JUDGED = [
  { step: MB_STEP.pause, subject: 'update_media_buy (pause)' },
  { step: MB_STEP.resume, subject: 'update_media_buy (resume)' },
  { step: MB_STEP.cancel, subject: 'update_media_buy (cancel)' },
] as const;

function carries(s: Step, ctx: CheckContext): Verdict {
  if (!servedAt31(s, ctx)) return notApplicable('served at AdCP 3.0, whose answers carry no media_buy_status');
  const payload = payloadOrVerdict(s.x);
  if ('verdict' in payload) return payload.verdict;
  const v = own(payload.data, 'media_buy_status');
  const want = `media_buy_status, one of ${MEDIA_BUY_STATUSES.join(', ')}`;
  if (v === undefined) {
    const legacy = own(payload.data, 'status');
    return fail(
      at(s, `${payload.pointer}/media_buy_status`),
      want,
      `absent${legacy === undefined ? '' : ` (only the top-level status ${preview(legacy)})`}`,
    );
  }
  return typeof v === 'string' && MEDIA_BUY_STATUSES.includes(v)
    ? pass()
    : fail(at(s, `${payload.pointer}/media_buy_status`), want, preview(v));
}

export default defineCheck({
  id: 'media-buy.status-field',
  scope: 'agent',
  severity: MUST_FROM_ADCP_3_1,
  live: false,
  requires: 'sandbox',
  title: "AdCP 3.1: the booking and update answers carry the buy's state as `media_buy_status`",
  spec: {
    label:
      'AdCP · Migrating to media_buy_status (3.1): "A 3.1 seller emitting only the legacy status is schema-valid but fails 3.1 storyboard certification"',
    url: 'https://adcontextprotocol.org/docs/reference/migration/media-buy-status',
  },
  fix: 'at AdCP 3.1 put the buy\'s lifecycle state in `media_buy_status` on every create_media_buy and update_media_buy success (e.g. `"media_buy_status": "pending_creatives"`); a legacy `status` beside it must hold the same value',
  judge(a: AgentCapture, ctx: CheckContext): AgentVerdict[] {
    const flow = lifecycle(a, 'create_media_buy');
    if ('verdicts' in flow) return flow.verdicts;
    const found = bookedBuy(flow);
    if ('verdict' in found) return [{ subject: 'create_media_buy', verdict: found.verdict }];
    const out: AgentVerdict[] = [{ subject: 'create_media_buy', verdict: carries(flow.book, ctx) }];
    for (const { step, subject } of JUDGED) {
      const s = flow.step(step);
      // Only answers that succeeded state a buy; a failed or missing step is media-buy.transitions' to judge.
      if (s && isSuccess(s.x)) out.push({ subject, verdict: carries(s, ctx) });
    }
    return out;
  },
});
