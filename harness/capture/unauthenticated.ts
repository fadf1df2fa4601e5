// The authentication scenarios: for an HTTP agent configured with credentials, calls made in sessions of
// their own, on separate connections, without the real credential.
// - `unauthenticated`: the same read-only protected call the probes made, WITHOUT the credential headers.
//   A conformant seller refuses it (HTTP 401 with WWW-Authenticate, or 403, at initialize or at the call;
//   or an AdCP auth error); it must never serve it.
// - `public-discovery`: in that same session, the discovery tasks the probes made (get_adcp_capabilities,
//   list_creative_formats, get_products), which AdCP lists as answering without credentials.
// - `invalid-credentials`: the protected call again, in a third session whose credential headers carry a
//   well-formed but wrong value (same names, same shape, random characters). It must be refused: 401/403,
//   or AUTH_INVALID. The real credential never goes out on that connection, and the wrong value is
//   redacted like a secret.
// A refusal is an HTTP answer, not a JSON-RPC one, so it is kept in the ScenarioRecord; a call that got a
// JSON-RPC answer (or none) is an Exchange like any other. The other sessions' HTTP observations stay out
// of the agent's own: their 401s are the answers we asked for.
import { randomInt } from 'node:crypto';
import { DISCOVERY_TASKS, PROTECTED_TASKS } from '../adcp-tasks.ts';
import type { AgentConfig, HttpAgentConfig } from '../config/types.ts';
import type { AgentCapture, Exchange, ScenarioRecord } from '../record/exchange.ts';
import { probeSuccess, SCENARIO, STEP } from './scenario-facts.ts';

/** Header names that carry credentials, when the config does not say which: Authorization, and names that say so. */
const CREDENTIAL_NAME = /^(authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|auth|session/i;

/** The scenarios this module records (SCENARIO.unauthenticated is the first). */
export const AUTH_SCENARIO = {
  unauthenticated: SCENARIO.unauthenticated,
  publicDiscovery: 'public-discovery',
  invalidCredentials: 'invalid-credentials',
} as const;

/** Every name this module records a ScenarioRecord under, in order. */
export const AUTH_SCENARIOS: readonly string[] = Object.values(AUTH_SCENARIO);

/** The step of the call made with a wrong credential. */
export const WRONG_CREDENTIALS_STEP = 'wrong-credentials';

/** Less than this left of the agent's time: a further session is not opened. */
const MIN_BUDGET_MS = 1_000;

/**
 * The configured headers that carry credentials: those the config names (`credentialHeaders`), else
 * Authorization and the headers whose names say they carry one (api-key, token, cookie …). The one
 * definition: the scenarios here and the storyboard proxy's sessions without credentials both use it.
 */
export function credentialHeaders(agent: HttpAgentConfig): string[] {
  const names = Object.keys(agent.headers);
  if (agent.credentialHeaders !== undefined) {
    const marked = new Set(agent.credentialHeaders.map((h) => h.toLowerCase()));
    return names.filter((n) => marked.has(n.toLowerCase()));
  }
  return names.filter((n) => CREDENTIAL_NAME.test(n));
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const pick = (alphabet: string): string => alphabet[randomInt(alphabet.length)]!;

/** Each letter or digit replaced by a random one of its class; everything else (dots, dashes, =) kept. */
function scramble(text: string): string {
  let out = '';
  for (const c of text) out += LOWER.includes(c) ? pick(LOWER) : UPPER.includes(c) ? pick(UPPER) : DIGITS.includes(c) ? pick(DIGITS) : c;
  return out;
}

/**
 * A well-formed but wrong credential of the same shape as `value`: the scheme word kept (`Bearer`,
 * `Basic` …), every letter and digit of the rest replaced by a random one of the same class. Never equal
 * to `value` (a value with no letter or digit gets a random token instead).
 */
export function wrongCredential(value: string): string {
  const m = /^(\s*[A-Za-z][A-Za-z0-9_-]*\s+)(\S.*)$/.exec(value);
  const [scheme, secret] = m ? [m[1]!, m[2]!] : ['', value];
  if (!/[A-Za-z0-9]/.test(secret)) return `${scheme}${scramble('x'.repeat(32))}`;
  for (;;) {
    const wrong = `${scheme}${scramble(secret)}`;
    if (wrong !== value) return wrong;
  }
}

export interface AuthScenariosResult {
  /** One record per name of AUTH_SCENARIOS, in that order. */
  records: ScenarioRecord[];
  /** The calls that got a JSON-RPC answer (or none), tagged with their scenario. */
  exchanges: Exchange[];
}

type Refusal = NonNullable<ScenarioRecord['refusal']>;

/** A call's arguments without its per-call `context` (the harness sends a fresh one with every call). */
function argumentsOf(x: Exchange): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x.request.arguments)) if (k !== 'context') out[k] = v;
  return out;
}

/** The HTTP refusal of a session's initialize, or why it got no answer (undefined when it succeeded). */
function initializeRefusal(sub: AgentCapture): { refusal: Refusal } | { untested: string } | undefined {
  if (sub.initialize.ok) return undefined;
  const f = sub.initialize.failure;
  if (f.kind !== 'http-status' || f.httpStatus === undefined) return { untested: `got no answer to initialize: ${f.message}` };
  const seen = sub.http?.observations.find((o) => o.method === 'initialize' && o.status === f.httpStatus);
  return {
    refusal: {
      at: 'initialize',
      status: f.httpStatus,
      ...(seen?.wwwAuthenticate !== undefined ? { wwwAuthenticate: seen.wwwAuthenticate } : {}),
      ...(seen?.bodyExcerpt !== undefined ? { bodyExcerpt: seen.bodyExcerpt } : {}),
      message: f.message,
    },
  };
}

/** The HTTP refusal of one tools/call (a non-2xx status instead of a JSON-RPC answer), if it was one. */
function callRefusal(x: Exchange): Refusal | undefined {
  const failure = x.outcome.kind === 'transport-error' ? x.outcome.failure : undefined;
  if (failure?.kind !== 'http-status' || failure.httpStatus === undefined) return undefined;
  return {
    at: 'tools/call',
    status: failure.httpStatus,
    ...(x.http?.wwwAuthenticate !== undefined ? { wwwAuthenticate: x.http.wwwAuthenticate } : {}),
    ...(x.http?.bodyExcerpt !== undefined ? { bodyExcerpt: x.http.bodyExcerpt } : {}),
    message: failure.message,
  };
}

/**
 * Run the scenarios. `capture` is captureAgent without scenarios (passed in: this module is imported by
 * capture-agent.ts); `budgetMs` is what is left of the agent's time.
 */
export async function unauthenticatedScenario(
  agent: AgentConfig,
  exchanges: readonly Exchange[],
  capture: (agent: AgentConfig) => Promise<AgentCapture>,
  budgetMs: number,
  onStart: () => void = () => {},
): Promise<AuthScenariosResult> {
  const started = performance.now();
  const left = (): number => budgetMs - (performance.now() - started);
  const records = new Map<string, ScenarioRecord>();
  const out: Exchange[] = [];
  const result = (): AuthScenariosResult => ({
    records: AUTH_SCENARIOS.map((name) => records.get(name) ?? { name, status: 'untested', reason: `the ${name} scenario did not run` }),
    exchanges: out,
  });
  const set = (name: string, status: ScenarioRecord['status'], reason?: string, extra: Partial<ScenarioRecord> = {}): void => {
    records.set(name, { name, status, ...(reason !== undefined ? { reason } : {}), ...extra });
  };
  const setAll = (status: 'not-applicable' | 'untested', reason: string, extra: Partial<ScenarioRecord> = {}): AuthScenariosResult => {
    for (const name of AUTH_SCENARIOS) if (!records.has(name)) set(name, status, reason, extra);
    return result();
  };

  if (agent.transport !== 'http') return setAll('not-applicable', 'not an HTTP agent: credentials are HTTP headers');
  const withheld = credentialHeaders(agent);
  if (withheld.length === 0)
    return setAll('not-applicable', 'the agent is configured without credentials (no credential header such as Authorization)');
  const w = { withheld };

  // What the sessions repeat: a protected read-only call, and the discovery calls, that worked with credentials.
  const base = PROTECTED_TASKS.map((t) => probeSuccess(exchanges, t)).find((x) => x !== undefined);
  if (!base) {
    const called = exchanges.some((x) => PROTECTED_TASKS.includes(x.tool));
    const why = called
      ? `no call of ${PROTECTED_TASKS.join(', ')} succeeded with credentials, so none could be repeated without them`
      : `the agent lists none of the protected read-only tasks ${PROTECTED_TASKS.join(', ')} (discovery tasks may be public)`;
    for (const name of [AUTH_SCENARIO.unauthenticated, AUTH_SCENARIO.invalidCredentials])
      set(name, called ? 'untested' : 'not-applicable', why, w);
  }
  const discovery = DISCOVERY_TASKS.map((t) => probeSuccess(exchanges, t)).filter((x): x is Exchange => x !== undefined);
  if (discovery.length === 0) {
    const called = exchanges.some((x) => DISCOVERY_TASKS.includes(x.tool));
    set(
      AUTH_SCENARIO.publicDiscovery,
      called ? 'untested' : 'not-applicable',
      called
        ? `no call of ${DISCOVERY_TASKS.join(', ')} succeeded with credentials, so none could be repeated without them`
        : `the agent lists none of the discovery tasks ${DISCOVERY_TASKS.join(', ')}`,
      w,
    );
  }

  const drop = new Set(withheld.map((h) => h.toLowerCase()));
  const session = (headers: Record<string, string>, calls: readonly Exchange[], secrets: readonly string[] = []): HttpAgentConfig => ({
    ...agent,
    headers,
    secrets: [...agent.secrets, ...secrets],
    probes: calls.map((x) => ({ tool: x.tool, arguments: argumentsOf(x), intent: 'valid' as const })),
    timeouts: { ...agent.timeouts, connectMs: Math.min(agent.timeouts.connectMs, left()), agentMs: Math.floor(left()) },
  });

  // Session without credentials: the discovery calls, then the protected one.
  const bareCalls = [...discovery, ...(base ? [base] : [])];
  if (bareCalls.length > 0) {
    if (left() < MIN_BUDGET_MS) return setAll('untested', 'the agent ran out of time before the calls without credentials', w);
    onStart();
    const headers = Object.fromEntries(Object.entries(agent.headers).filter(([n]) => !drop.has(n.toLowerCase())));
    const sub = await capture(session(headers, bareCalls));
    const init = initializeRefusal(sub);
    if (init && 'untested' in init) return setAll('untested', `the session without credentials ${init.untested}`, w);
    if (init) {
      if (base) set(AUTH_SCENARIO.unauthenticated, 'ran', undefined, { ...w, refusal: init.refusal });
      if (discovery.length) set(AUTH_SCENARIO.publicDiscovery, 'ran', undefined, { ...w, refusal: init.refusal });
    } else {
      const refusals: NonNullable<ScenarioRecord['refusals']> = [];
      for (const x of sub.exchanges) {
        const isBase = base !== undefined && x.tool === base.tool;
        const refusal = callRefusal(x);
        if (isBase) {
          if (refusal) set(AUTH_SCENARIO.unauthenticated, 'ran', undefined, { ...w, refusal });
          else {
            set(AUTH_SCENARIO.unauthenticated, 'ran', undefined, w);
            out.push({ ...x, scenario: { name: AUTH_SCENARIO.unauthenticated, step: STEP.withoutCredentials } });
          }
        } else if (DISCOVERY_TASKS.includes(x.tool)) {
          if (refusal) {
            const { at: _at, ...rest } = refusal;
            refusals.push({ tool: x.tool, ...rest });
          } else out.push({ ...x, scenario: { name: AUTH_SCENARIO.publicDiscovery, step: x.tool } });
        }
      }
      const why = `was not made${sub.aborted ? `: ${sub.aborted.message}` : ''}`;
      if (base && !records.has(AUTH_SCENARIO.unauthenticated))
        set(AUTH_SCENARIO.unauthenticated, 'untested', `the call without credentials ${why}`, w);
      if (discovery.length) {
        const made = refusals.length + out.filter((x) => x.scenario?.name === AUTH_SCENARIO.publicDiscovery).length;
        if (made === 0)
          set(
            AUTH_SCENARIO.publicDiscovery,
            'untested',
            `the discovery calls without credentials were not made${sub.aborted ? `: ${sub.aborted.message}` : ''}`,
            w,
          );
        else set(AUTH_SCENARIO.publicDiscovery, 'ran', undefined, { ...w, ...(refusals.length ? { refusals } : {}) });
      }
    }
  }

  // Session with a wrong credential: the protected call again, the credential headers carrying wrong values.
  if (base) {
    if (left() < MIN_BUDGET_MS) {
      set(AUTH_SCENARIO.invalidCredentials, 'untested', 'the agent ran out of time before the call with a wrong credential', w);
      return result();
    }
    const wrong: string[] = [];
    const headers = Object.fromEntries(
      Object.entries(agent.headers).map(([n, v]) => {
        if (!drop.has(n.toLowerCase())) return [n, v];
        const value = wrongCredential(v);
        wrong.push(value, value.replace(/^\s*[A-Za-z][A-Za-z0-9_-]*\s+/, ''));
        return [n, value];
      }),
    );
    onStart();
    const sub = await capture(session(headers, [base], wrong));
    const init = initializeRefusal(sub);
    const name = AUTH_SCENARIO.invalidCredentials;
    if (init && 'untested' in init) set(name, 'untested', `the session with a wrong credential ${init.untested}`, w);
    else if (init) set(name, 'ran', undefined, { ...w, refusal: init.refusal });
    else {
      const x = sub.exchanges[0];
      const refusal = x ? callRefusal(x) : undefined;
      if (!x) set(name, 'untested', `the call with a wrong credential was not made${sub.aborted ? `: ${sub.aborted.message}` : ''}`, w);
      else if (refusal) set(name, 'ran', undefined, { ...w, refusal });
      else {
        set(name, 'ran', undefined, w);
        out.push({ ...x, scenario: { name, step: WRONG_CREDENTIALS_STEP } });
      }
    }
  }
  return result();
}
