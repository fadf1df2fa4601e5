// Views of one business-rule scenario in a capture (harness/capture/scenarios.ts), for the checks that
// judge it: its record, its steps in call order, and — when it did not run — the verdict that stands in
// for it (the record's own not-applicable / untested, or untested when nothing was recorded).
import type { AgentCapture, Exchange, ScenarioRecord } from '../record/exchange.ts';
import { scenarioOf } from '../capture/scenario-facts.ts';
import { effectiveRecovery, MAX_CODE_LENGTH } from '../extract/error.ts';
import { fail, notApplicable, onCall, pass, untested, type AgentVerdict, type Verdict } from './check.ts';
import { locatedAdcpError } from './error/_adcp-error.ts';
import { isObject, own, preview, type JsonObject } from '../json.ts';
import { noAnswer, viewResult } from './views.ts';

export interface Step {
  x: Exchange;
  step: string;
  /** Index of the call in the capture's `exchanges` (pointers say `/exchanges/<call>/…`). */
  call: number;
}

/** The record of scenario `name`, and its index in `scenarios` (for pointers), if the capture has one. */
export function scenarioRecord(a: AgentCapture, name: string): { record: ScenarioRecord; index: number } | undefined {
  const list: unknown = (a as { scenarios?: unknown }).scenarios;
  if (!Array.isArray(list)) return undefined;
  const index = list.findIndex((r) => own(r, 'name') === name);
  return index >= 0 && isObject(list[index]) ? { record: list[index] as unknown as ScenarioRecord, index } : undefined;
}

/** The calls of scenario `name`, in call order. */
export function scenarioSteps(a: AgentCapture, name: string): Step[] {
  const exchanges = Array.isArray(a.exchanges) ? a.exchanges : [];
  const steps: Step[] = [];
  exchanges.forEach((x, call) => {
    const s = scenarioOf(x);
    if (s?.name === name) steps.push({ x, step: s.step, call });
  });
  return steps;
}

/** The verdict for a scenario that did not run, or undefined when it ran. */
export function notRun(a: AgentCapture, name: string): Verdict | undefined {
  const found = scenarioRecord(a, name);
  if (!found) {
    if (a.initialize?.ok === false) return untested('initialize failed: see transport.initialize');
    return untested(`the ${name} scenario was not recorded (a recording made before the harness ran scenarios?)`);
  }
  const { status, reason } = found.record;
  const why = typeof reason === 'string' ? reason : `the ${name} scenario did not run`;
  if (status === 'not-applicable') return notApplicable(why);
  if (status === 'untested') return untested(why);
  if (status !== 'ran') return untested(`the ${name} scenario record has status ${preview(status)}`);
  return undefined;
}

/** One verdict, about the scenario as a whole (its name is the subject). */
export const about = (subject: string, verdict: Verdict): AgentVerdict[] => [{ subject, verdict }];

/** `/exchanges/<call><rest>`: where in the capture a step's finding is. */
export const at = (s: Step, rest: string): string => `/exchanges/${s.call}${rest}`;

/** What a step's call came back with, as the business rules read it. */
export type Answer =
  | { kind: 'none'; verdict: Verdict }
  | { kind: 'success' }
  /** An AdCP error (isError + adcp_error, or a JSON-RPC error carrying data.adcp_error); pointer relative to the exchange. */
  | { kind: 'adcp-error'; error: JsonObject; pointer: string }
  /** A JSON-RPC error without data.adcp_error: no AdCP error a client could act on. */
  | { kind: 'bare-jsonrpc'; found: string };

/** What call `x` came back with; `call` (its index in the capture) places a failed precondition on it. */
export function answerOf(x: Exchange, call?: number): Answer {
  const outcome = x.outcome;
  if (outcome.kind === 'transport-error') return { kind: 'none', verdict: onCall(noAnswer(), call) };
  if (outcome.kind === 'result') {
    const v = viewResult(x);
    if (v.kind === 'none') return { kind: 'none', verdict: onCall(v.verdict, call) };
    if (v.kind === 'success') return { kind: 'success' };
  }
  const located = locatedAdcpError(x);
  if (!('verdict' in located)) return { kind: 'adcp-error', error: located.error, pointer: located.pointer };
  if (outcome.kind === 'jsonrpc-error') {
    return {
      kind: 'bare-jsonrpc',
      found: `JSON-RPC error ${preview(own(outcome.error, 'code'))}: ${preview(own(outcome.error, 'message'))}`,
    };
  }
  // isError without an adcp_error: error.adcp-error owns that.
  return { kind: 'none', verdict: onCall(located.verdict, call) };
}

/**
 * A step that must be served as the same call without what it varied: a success passes; a refusal (an AdCP
 * error, a bare JSON-RPC error) fails against `want`; no answer is the verdict answerOf gives.
 */
export function servedLike(s: Step, want: string): Verdict {
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success':
      return pass();
    case 'bare-jsonrpc':
      return fail(at(s, '/error'), want, answer.found);
    case 'adcp-error':
      return fail(
        at(s, answer.pointer),
        want,
        `an AdCP error ${preview(own(answer.error, 'code'))}: ${preview(own(answer.error, 'message'))}`,
      );
  }
}

/**
 * The error's code when error.code would accept it (a string of 1–64 characters), else the verdict deferring
 * to error.code's finding on call `call`.
 */
export function codeOf(error: JsonObject, call: number): { code: string } | { verdict: Verdict } {
  const code = own(error, 'code');
  if (typeof code === 'string' && code.length >= 1 && code.length <= MAX_CODE_LENGTH) return { code };
  return { verdict: untested(`the error code ${preview(code)} is not one a client accepts: see error.code`, undefined, call) };
}

const RECOVERIES = ['transient', 'correctable', 'terminal'];

/**
 * Whether the error tells the caller to correct the request and retry: its `recovery`, or when absent the
 * one its code implies. A value that is no recovery at all is error.recovery's finding (untested here).
 */
export function recoveryOf(error: JsonObject, call: number): { recovery: string; stated: boolean } | { verdict: Verdict } {
  const r = own(error, 'recovery');
  if (r === undefined || r === null) return { recovery: effectiveRecovery(error), stated: false };
  if (typeof r === 'string' && RECOVERIES.includes(r)) return { recovery: r, stated: true };
  return { verdict: untested(`recovery ${preview(r)} is not a recovery class: see error.recovery`, undefined, call) };
}
