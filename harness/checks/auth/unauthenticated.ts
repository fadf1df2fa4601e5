// auth.unauthenticated — for an HTTP agent configured with credentials, the same read-only call made in a
// session opened without them is refused: HTTP 401 carrying a WWW-Authenticate challenge, or 403, or an
// AdCP auth error. It is never served. (The call is one of the protected read-only tasks; discovery such
// as get_adcp_capabilities may be public by design.)
import type { AgentCapture } from '../../record/exchange.ts';
import { SCENARIO, STEP } from '../../capture/scenario-facts.ts';
import { authSession } from './_session.ts';
import { defineCheck, fail, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { about, answerOf, at, scenarioSteps, type Step } from '../scenario-view.ts';
import { reservedCode } from '../error/_adcp-error.ts';

/** AdCP codes that refuse a caller for its credentials (3.0 AUTH_REQUIRED; 3.1 AUTH_MISSING / AUTH_INVALID). */
const AUTH_CODES = ['AUTH_MISSING', 'AUTH_REQUIRED', 'AUTH_INVALID', 'AUTHORIZATION_REQUIRED'];
const WANT = 'a refusal: HTTP 401 with WWW-Authenticate (or 403), or an AdCP auth error (AUTH_MISSING / AUTH_REQUIRED)';

function judgeCall(s: Step, withheld: string): Verdict {
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success':
      return fail(at(s, '/result'), WANT, `served: a success without ${withheld}`);
    case 'bare-jsonrpc':
      // -32028 is the code AdCP reserves for missing credentials (its data is error.jsonrpc-data's concern).
      return s.x.outcome.kind === 'jsonrpc-error' && reservedCode(s.x.outcome.error) === 'AUTH_MISSING'
        ? pass()
        : fail(at(s, '/error'), WANT, answer.found);
    case 'adcp-error': {
      const code = own(answer.error, 'code');
      return typeof code === 'string' && AUTH_CODES.includes(code)
        ? pass()
        : fail(at(s, `${answer.pointer}/code`), `an auth error code (${AUTH_CODES.join(', ')})`, preview(code));
    }
  }
}

export default defineCheck({
  id: 'auth.unauthenticated',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title:
    'for an HTTP agent configured with credentials, the same call without them is refused (401 + WWW-Authenticate, 403, or an AdCP auth error), never served',
  spec: {
    label:
      'MCP 2025-11-25 · Basic › Authorization (a request without a valid token gets HTTP 401 with WWW-Authenticate); AdCP error codes AUTH_MISSING / AUTH_REQUIRED',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization',
  },
  fix: 'check credentials on every request, initialize included: answer one without them `401` with `WWW-Authenticate: Bearer realm="…"` (or an isError result `{"adcp_error":{"code":"AUTH_MISSING",…}}`)',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = SCENARIO.unauthenticated;
    const session = authSession(a, name, 'its credentials');
    if ('verdicts' in session) return session.verdicts;
    const { record, index, headers: withheld } = session;
    const refusal = record.refusal;
    if (refusal) {
      const subject = `${refusal.at} without ${withheld}`;
      const where = `/scenarios/${index}/refusal`;
      if (refusal.status === 403) return about(subject, pass());
      if (refusal.status === 401) {
        return about(
          subject,
          typeof refusal.wwwAuthenticate === 'string' && refusal.wwwAuthenticate.trim() !== ''
            ? pass()
            : fail(
                `${where}/wwwAuthenticate`,
                'a WWW-Authenticate challenge on the 401 (RFC 6750 §3)',
                'HTTP 401 without WWW-Authenticate',
              ),
        );
      }
      return about(
        subject,
        fail(`${where}/status`, WANT, `HTTP ${preview(refusal.status)}${refusal.bodyExcerpt ? `: ${refusal.bodyExcerpt}` : ''}`),
      );
    }
    const s = scenarioSteps(a, name).find((x) => x.step === STEP.withoutCredentials);
    if (!s) return about(name, untested('the call without credentials is missing from the capture'));
    return about(`${s.x.tool} without ${withheld}`, judgeCall(s, withheld));
  },
});
