// auth.invalid-credentials — for an HTTP agent configured with credentials, the same protected read-only
// call the probes made (never a public discovery task), sent in a session of its own whose credential
// headers carry a well-formed but wrong value, is refused: HTTP 401 or 403, or an AdCP error AUTH_INVALID
// (terminal; AUTH_REQUIRED, the deprecated alias that still covers rejected credentials in 3.x, is accepted).
// It is never served. No protected task exposed: not-applicable.
import type { AgentCapture } from '../../record/exchange.ts';
import { AUTH_SCENARIO, WRONG_CREDENTIALS_STEP } from '../../capture/unauthenticated.ts';
import { authSession } from './_session.ts';
import { defineCheck, fail, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { about, answerOf, at, scenarioSteps, type Step } from '../scenario-view.ts';

/** Codes that refuse a presented credential: AUTH_INVALID (3.1), and AUTH_REQUIRED (3.0; its deprecated alias in 3.1). */
export const INVALID_CREDENTIAL_CODES = ['AUTH_INVALID', 'AUTH_REQUIRED'];
const WANT = 'a refusal: HTTP 401 (or 403), or an AdCP error AUTH_INVALID (terminal)';

function judgeCall(s: Step, sent: string): Verdict {
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success':
      return fail(at(s, '/result'), WANT, `served: a success with a wrong ${sent}`);
    case 'bare-jsonrpc':
      return fail(at(s, '/error'), WANT, answer.found);
    case 'adcp-error': {
      const code = own(answer.error, 'code');
      if (typeof code !== 'string' || !INVALID_CREDENTIAL_CODES.includes(code)) {
        const why = code === 'AUTH_MISSING' ? ' (AUTH_MISSING says no credential was sent; one was)' : '';
        return fail(at(s, `${answer.pointer}/code`), 'AUTH_INVALID (or its deprecated alias AUTH_REQUIRED)', `${preview(code)}${why}`);
      }
      const recovery = own(answer.error, 'recovery');
      if (code === 'AUTH_INVALID' && recovery !== undefined && recovery !== 'terminal')
        return fail(
          at(s, `${answer.pointer}/recovery`),
          '"terminal" (AUTH_INVALID: do not retry a rejected credential)',
          preview(recovery),
        );
      return pass();
    }
  }
}

export default defineCheck({
  id: 'auth.invalid-credentials',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title:
    'for an HTTP agent configured with credentials, a protected call with a wrong credential is refused (401/403, or AUTH_INVALID), never served',
  spec: {
    label:
      'AdCP 3.1 enums/error-code.json AUTH_INVALID ("Sellers MUST return this code when an Authorization header was present but verification failed", recovery terminal; AUTH_REQUIRED its deprecated alias, L3/error-handling.mdx); MCP 2025-11-25 Authorization › Token Handling ("Invalid or expired tokens MUST receive a HTTP 401 response")',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L3/error-handling#authentication-and-access',
  },
  fix: 'verify the credential on every protected request: answer a wrong one `401` with `WWW-Authenticate: Bearer error="invalid_token"`, or an isError result `{"adcp_error":{"code":"AUTH_INVALID","recovery":"terminal",…}}`',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = AUTH_SCENARIO.invalidCredentials;
    const session = authSession(a, name, 'credential');
    if ('verdicts' in session) return session.verdicts;
    const { record, index, headers: sent } = session;
    const refusal = record.refusal;
    if (refusal) {
      const subject = `${String(refusal.at)} with a wrong ${sent}`;
      if (refusal.status === 401 || refusal.status === 403) return about(subject, pass());
      return about(
        subject,
        fail(
          `/scenarios/${index}/refusal/status`,
          WANT,
          `HTTP ${preview(refusal.status)}${refusal.bodyExcerpt ? `: ${refusal.bodyExcerpt}` : ''}`,
        ),
      );
    }
    const s = scenarioSteps(a, name).find((x) => x.step === WRONG_CREDENTIALS_STEP);
    if (!s) return about(name, untested('the call with a wrong credential is missing from the capture'));
    return about(`${s.x.tool} with a wrong ${sent}`, judgeCall(s, sent));
  },
});
