// envelope.context-not-fabricated — a call sent WITHOUT `context` gets no `context` back (null counts as
// absent, as the text allows). Judged on the step of the context-not-fabricated scenario
// (harness/capture/envelope-scenario.ts): the one call the harness sends without the context object it
// otherwise puts on every call. Where a success or an error may carry one: the payload a client extracts,
// structuredContent beside adcp_error, inside adcp_error, and the JSON of a text item.
import type { AgentCapture, Exchange } from '../../record/exchange.ts';
import { ENVELOPE_SCENARIO, ENVELOPE_STEP } from '../../capture/envelope-scenario.ts';
import { defineCheck, fail, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { hasOwn, isObject, own, preview, type JsonObject } from '../../json.ts';
import { about, at, notRun, scenarioSteps } from '../scenario-view.ts';
import { textItems, viewResult } from '../views.ts';

/** Every place an answer carries a `context` (pointers relative to the exchange). */
export function contextsIn(x: Exchange): Array<{ pointer: string; value: unknown }> {
  const v = viewResult(x);
  if (v.kind === 'none') return [];
  const out: Array<{ pointer: string; value: unknown }> = [];
  const add = (base: string, container: unknown): void => {
    if (!isObject(container)) return;
    if (hasOwn(container, 'context')) out.push({ pointer: `${base}/context`, value: own(container, 'context') });
    const err = own(container, 'adcp_error');
    if (isObject(err) && hasOwn(err, 'context')) out.push({ pointer: `${base}/adcp_error/context`, value: own(err, 'context') });
  };
  const result: JsonObject = v.result;
  add('/result/structuredContent', own(result, 'structuredContent'));
  for (const t of textItems(result)) add(`/result/content/${t.index}/text`, t.json?.value);
  return out;
}

function judgeStep(x: Exchange, call: number): Verdict {
  if (hasOwn(x.request?.arguments, 'context'))
    return untested('the call meant to go without context carried one (harness error): nothing to judge');
  const v = viewResult(x);
  if (v.kind === 'none') return v.verdict;
  const made = contextsIn(x).find((c) => c.value !== null);
  if (made)
    return fail(
      at({ x, step: ENVELOPE_STEP.withoutContext, call }, made.pointer),
      'no context (the request carried none; absent or null)',
      `a context the seller made up: ${preview(made.value)}`,
    );
  return pass();
}

export default defineCheck({
  id: 'envelope.context-not-fabricated',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title: 'a call sent without `context` gets no `context` back',
  spec: {
    label:
      'AdCP · Context & sessions, "Normative echo contract", rule 4 "No synthesis": "When the caller does NOT provide a context object, the agent MUST NOT fabricate one. Responses to context-less requests MUST omit the context field (or emit it as null / absent …)" (3.0 and 3.1)',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L2/context-sessions',
  },
  fix: 'echo `context` only when the request carried one: `if ("context" in args) response.context = args.context` — never a default `{}` or a server-made trace id',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = ENVELOPE_SCENARIO.noContext;
    const skipped = notRun(a, name);
    if (skipped) return about(name, skipped);
    const steps = scenarioSteps(a, name).filter((s) => s.step === ENVELOPE_STEP.withoutContext);
    if (steps.length === 0) return about(name, untested('the call without context was not made (the session ended first)'));
    return steps.map((s) => ({ subject: `${s.x.tool} (sent without context)`, verdict: judgeStep(s.x, s.call) }));
  },
});
