// What the reports say about an agent's sandbox session, read off the capture and the outcomes alone (a
// replay says what the live run said): which AdCP account its calls named, which state rules stayed out
// of reach because the agent is not marked sandbox, and what the sandbox flows made the seller create.
// Every string is bounded and redacted here, before any report sees it.
import type { AgentCapture } from '../../record/exchange.ts';
import type { Check, Outcome } from '../../checks/check.ts';
import type { AccountUse, AgentFacts, CreatedObject } from '../../report/model.ts';
import { accountFor } from '../../capture/probes.ts';
import { isObject, own } from '../../json.ts';
import { errorCodeOf } from '../../extract/answer-facts.ts';
import { sellerText } from '../../sanitize.ts';
import { webhookFacts } from '../../webhooks/report-facts.ts';
import { taskTrace } from './task-trace.ts';

/** Created objects listed per agent; the rest are counted (`createdOmitted`). */
const CREATED_SHOWN = 50;
const ACCOUNT_CHARS = 300;

/**
 * The ids of the checks declared `requires: 'sandbox'` (the state rules), in the checks' order: the judge
 * worker reads them off the catalog it loaded, so the main thread need not load it.
 */
export function stateRuleIds(checks: readonly Check[]): string[] {
  return checks.filter((c) => c.requires === 'sandbox').map((c) => c.id);
}

export type SessionFacts = Pick<AgentFacts, 'account' | 'stateRulesOutOfReach' | 'created' | 'createdOmitted' | 'webhooks' | 'taskTrace'>;

/** `rules`: the state rules' ids (the catalog's: stateRuleIds). */
export function sessionFacts(
  capture: AgentCapture,
  outcomes: readonly Outcome[],
  secrets: readonly string[],
  rules: readonly string[],
): SessionFacts {
  const facts: SessionFacts = { account: accountUse(capture, secrets) };
  const out = outOfReach(capture, outcomes, rules);
  if (out.length) facts.stateRulesOutOfReach = out;
  const { created, omitted } = createdObjects(capture, secrets);
  if (created.length) facts.created = created;
  if (omitted) facts.createdOmitted = omitted;
  const webhooks = webhookFacts(capture, secrets);
  if (webhooks) facts.webhooks = webhooks;
  const trace = taskTrace(capture, secrets);
  if (trace) facts.taskTrace = trace;
  return facts;
}

/**
 * The config's `account` when the capture records one, else the harness's own natural-key sandbox
 * reference; and the calls the seller refused for their account (an AdCP error whose code names the
 * account: ACCOUNT_REQUIRED, ACCOUNT_NOT_FOUND …), so a report says why a run without one went nowhere.
 */
function accountUse(capture: AgentCapture, secrets: readonly string[]): AccountUse {
  const configured = own(capture.agent, 'account');
  const source = isObject(configured) ? 'config' : 'harness';
  const reference = source === 'config' ? configured : accountFor();
  const use: AccountUse = { source, reference: sellerText(reference, secrets, ACCOUNT_CHARS) };
  const byCode = new Map<string, { calls: number; tools: Set<string> }>();
  const exchanges = Array.isArray(capture.exchanges) ? capture.exchanges : [];
  for (const x of exchanges) {
    const code = x?.outcome ? errorCodeOf(x.outcome) : undefined;
    if (typeof code !== 'string' || !ACCOUNT_CODE.test(code)) continue;
    let entry = byCode.get(code);
    if (!entry) {
      if (byCode.size >= REFUSAL_CODES_SHOWN) continue;
      byCode.set(code, (entry = { calls: 0, tools: new Set() }));
    }
    entry.calls++;
    if (entry.tools.size < REFUSED_TOOLS_SHOWN) entry.tools.add(String(x.tool));
  }
  if (byCode.size)
    use.refusals = [...byCode].map(([code, e]) => ({
      code: sellerText(code, secrets, 64),
      calls: e.calls,
      tools: [...e.tools].map((t) => sellerText(t, secrets, 64)),
    }));
  return use;
}

/** An AdCP error code about the account a call named (or did not): ACCOUNT_REQUIRED, ACCOUNT_NOT_FOUND, ACCOUNT_SUSPENDED … */
const ACCOUNT_CODE = /^ACCOUNT_[A-Z_]{2,40}$/;
const REFUSAL_CODES_SHOWN = 5;
const REFUSED_TOOLS_SHOWN = 6;

/**
 * The state rules not judged because the agent is not marked sandbox: checks declared `requires: 'sandbox'`
 * whose outcomes are all not-applicable. A sandbox agent has none out of reach (a rule not-applicable there
 * is so for another reason: the tool not listed, the release served).
 */
function outOfReach(capture: AgentCapture, outcomes: readonly Outcome[], rules: readonly string[]): string[] {
  if (capture.agent.sandbox === true) return [];
  return rules.filter((id) => {
    const mine = outcomes.filter((o) => o.check === id);
    return mine.length > 0 && mine.every((o) => o.status === 'not-applicable');
  });
}

/** Every object the sandbox flows created, in scenario order (bounded; ids are the seller's: sanitized). */
function createdObjects(capture: AgentCapture, secrets: readonly string[]): { created: CreatedObject[]; omitted: number } {
  const created: CreatedObject[] = [];
  let omitted = 0;
  const scenarios = Array.isArray(capture.scenarios) ? capture.scenarios : [];
  for (const s of scenarios) {
    const list = own(s, 'created');
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isObject(c)) continue;
      if (created.length >= CREATED_SHOWN) {
        omitted++;
        continue;
      }
      const call = own(c, 'call');
      const why = own(c, 'why');
      created.push({
        scenario: sellerText(own(s, 'name'), secrets, 80),
        kind: sellerText(own(c, 'kind'), secrets, 40),
        id: sellerText(own(c, 'id'), secrets, 200),
        call: typeof call === 'number' && Number.isSafeInteger(call) && call >= 0 ? call : -1,
        cleanup: own(c, 'cleanup') === 'cleaned-up' ? 'cleaned-up' : 'kept',
        ...(typeof why === 'string' && why !== '' ? { why: sellerText(why, secrets, 300) } : {}),
      });
    }
  }
  return { created, omitted };
}
