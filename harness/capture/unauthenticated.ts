// The unauthenticated scenario: for an HTTP agent configured with credentials, the same read-only call
// the probes made, in a session of its own opened WITHOUT the credential headers. A conformant seller
// refuses it (HTTP 401 with WWW-Authenticate, or 403, at initialize or at the call; or an AdCP auth
// error); it must never serve it. The refusal is an HTTP answer, not a JSON-RPC one, so it is kept in
// the ScenarioRecord; a call that got a JSON-RPC answer (or none) is an Exchange like any other.
// The second session's HTTP observations stay out of the agent's own: its 401 is the answer we asked for.
import type { AgentConfig, HttpAgentConfig } from '../config/types.ts';
import type { AgentCapture, Exchange, ScenarioRecord } from './exchange.ts';
import { probeSuccess, SCENARIO, STEP } from './scenario-facts.ts';

/** Header names that carry credentials, when the config does not say which headers came from secrets. */
const CREDENTIAL_NAME = /^(authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|auth|session/i;

/**
 * Read-only tasks a seller protects (the order the probe prefers). Discovery tasks are left out on
 * purpose: get_adcp_capabilities (and often get_products) answer without credentials by design.
 */
export const PROTECTED_TASKS = ['list_creatives', 'get_media_buys', 'get_media_buy_delivery', 'get_signals'];

/** Less than this left of the agent's time: the second session is not opened. */
const MIN_BUDGET_MS = 1_000;

/** The configured headers that carry credentials: those the config marks, else those whose names say so. */
export function credentialHeaders(agent: HttpAgentConfig): string[] {
  const names = Object.keys(agent.headers);
  if (agent.credentialHeaders !== undefined) {
    const marked = new Set(agent.credentialHeaders.map((h) => h.toLowerCase()));
    return names.filter((n) => marked.has(n.toLowerCase()));
  }
  return names.filter((n) => CREDENTIAL_NAME.test(n));
}

export interface UnauthenticatedResult {
  record: ScenarioRecord;
  /** The call without credentials, when it got a JSON-RPC answer (or no answer at all). */
  exchange?: Exchange;
}

/**
 * Run the scenario. `capture` is captureAgent without scenarios (passed in: this module is imported by
 * capture-agent.ts); `budgetMs` is what is left of the agent's time.
 */
export async function unauthenticatedScenario(
  agent: AgentConfig,
  exchanges: readonly Exchange[],
  capture: (agent: AgentConfig) => Promise<AgentCapture>,
  budgetMs: number,
  onStart: () => void = () => {},
): Promise<UnauthenticatedResult> {
  const name = SCENARIO.unauthenticated;
  const record = (status: 'not-applicable' | 'untested', reason: string, withheld?: string[]): UnauthenticatedResult => ({
    record: { name, status, reason, ...(withheld ? { withheld } : {}) },
  });
  if (agent.transport !== 'http') return record('not-applicable', 'not an HTTP agent: credentials are HTTP headers');
  const withheld = credentialHeaders(agent);
  if (withheld.length === 0)
    return record('not-applicable', 'the agent is configured without credentials (no credential header such as Authorization)');
  const base = PROTECTED_TASKS.map((t) => probeSuccess(exchanges, t)).find((x) => x !== undefined);
  if (!base) {
    const called = exchanges.some((x) => PROTECTED_TASKS.includes(x.tool));
    return called
      ? record(
          'untested',
          `no call of ${PROTECTED_TASKS.join(', ')} succeeded with credentials, so none could be repeated without them`,
          withheld,
        )
      : record(
          'not-applicable',
          `the agent lists none of the protected read-only tasks ${PROTECTED_TASKS.join(', ')} (discovery tasks may be public)`,
          withheld,
        );
  }
  if (budgetMs < MIN_BUDGET_MS) return record('untested', 'the agent ran out of time before the call without credentials', withheld);

  const drop = new Set(withheld.map((h) => h.toLowerCase()));
  const headers = Object.fromEntries(Object.entries(agent.headers).filter(([n]) => !drop.has(n.toLowerCase())));
  const args: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(base.request.arguments)) if (k !== 'context') args[k] = v;
  const bare: HttpAgentConfig = {
    ...agent,
    headers,
    probes: [{ tool: base.tool, arguments: args, intent: 'valid' }],
    timeouts: { ...agent.timeouts, connectMs: Math.min(agent.timeouts.connectMs, budgetMs), agentMs: Math.floor(budgetMs) },
  };
  onStart();
  const sub = await capture(bare);

  if (!sub.initialize.ok) {
    const f = sub.initialize.failure;
    if (f.kind !== 'http-status' || f.httpStatus === undefined) {
      return record('untested', `the session without credentials got no answer to initialize: ${f.message}`, withheld);
    }
    const seen = sub.http?.observations.find((o) => o.method === 'initialize' && o.status === f.httpStatus);
    return {
      record: {
        name,
        status: 'ran',
        withheld,
        refusal: {
          at: 'initialize',
          status: f.httpStatus,
          ...(seen?.wwwAuthenticate !== undefined ? { wwwAuthenticate: seen.wwwAuthenticate } : {}),
          ...(seen?.bodyExcerpt !== undefined ? { bodyExcerpt: seen.bodyExcerpt } : {}),
          message: f.message,
        },
      },
    };
  }
  const x = sub.exchanges[0];
  if (!x) return record('untested', `the call without credentials was not made${sub.aborted ? `: ${sub.aborted.message}` : ''}`, withheld);
  const failure = x.outcome.kind === 'transport-error' ? x.outcome.failure : undefined;
  if (failure?.kind === 'http-status' && failure.httpStatus !== undefined) {
    return {
      record: {
        name,
        status: 'ran',
        withheld,
        refusal: {
          at: 'tools/call',
          status: failure.httpStatus,
          ...(x.http?.wwwAuthenticate !== undefined ? { wwwAuthenticate: x.http.wwwAuthenticate } : {}),
          ...(x.http?.bodyExcerpt !== undefined ? { bodyExcerpt: x.http.bodyExcerpt } : {}),
          message: failure.message,
        },
      },
    };
  }
  return { record: { name, status: 'ran', withheld }, exchange: { ...x, scenario: { name, step: STEP.withoutCredentials } } };
}
