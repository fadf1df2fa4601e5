// envelope.protocol-fields — the envelope fields a buyer SDK sends uniformly on every AdCP tool call
// (`context_id`, `push_notification_config`, `governance_context`, and `idempotency_key`, which 3.1
// requires on reads too) are accepted on every tool, reads included: the call is served as it was without
// them. Judged on the steps of the protocol-fields scenario (harness/capture/envelope-scenario.ts): each
// re-sends a read-only call that succeeded with the fields added; an error, or no AdCP answer, is a failure.
// `context` is sent on every call already (envelope.context-echo judges it). A 3.1 rule: "normative for
// 3.1+" in the text of 3.0 and 3.1 alike, so a seller that declares no 3.1+ release is not concerned.
import type { AgentCapture } from '../../record/exchange.ts';
import { ENVELOPE_SCENARIO, PROTOCOL_FIELDS } from '../../capture/envelope-scenario.ts';
import { defineCheck, type AgentVerdict, type Verdict } from '../check.ts';
import { about, notRun, scenarioSteps, servedLike, type Step } from '../scenario-view.ts';
import { gate31 } from '../version/_negotiation.ts';

const WANT = `served as the same call without ${PROTOCOL_FIELDS.join(', ')} (which succeeded): a tool that does not use an envelope field ignores it`;

const judgeStep = (s: Step): Verdict => servedLike(s, WANT);

export default defineCheck({
  id: 'envelope.protocol-fields',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title:
    'the envelope fields `context_id`, `push_notification_config`, `governance_context` and `idempotency_key` are accepted on every tool, reads included: the call is served as without them',
  spec: {
    label:
      'AdCP 3.1 · Security, "Server-side tool wrapper conformance": "context_id, context, push_notification_config, governance_context MUST be accepted on every tool, including reads … they MUST NOT reject the call because the envelope field is present"; idempotency_key: "Tool wrappers MUST accept it" ("This rule is normative for 3.1+")',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L1/security',
  },
  fix: 'accept and ignore envelope fields a tool does not use: declare them optional (`idempotency_key: str | None = None`, …), drop `.strict()` / `extra="forbid"` on input models, keep `additionalProperties: true`',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = ENVELOPE_SCENARIO.protocolFields;
    const gate = gate31(a);
    if ('verdict' in gate) return about(name, gate.verdict);
    const skipped = notRun(a, name);
    if (skipped) return about(name, skipped);
    const steps = scenarioSteps(a, name);
    return steps.map((s) => ({ subject: `${s.x.tool} (with ${PROTOCOL_FIELDS.join(', ')})`, verdict: judgeStep(s) }));
  },
});
