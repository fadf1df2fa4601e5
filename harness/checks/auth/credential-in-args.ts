// auth.credential-in-args — a request carrying a credential-shaped key in its arguments (the probe:
// `ext.api_key` with a made-up value, pinned to the seller's newest 3.1+ release) is rejected with
// CREDENTIAL_IN_ARGS, recovery terminal, and the error does not echo the value. AdCP 3.1 only.
//
// Level: authentication.mdx says SHOULD under 3.1, "the requirement upgrades to MUST 90 days after the
// 3.1 publication date". 3.1.0 was published 2026-06-18 (reference/versions.mdx; tag v3.1.0), so it is
// MUST from 2026-09-16. check.ts has no dated severity, and every run of this harness postdates that day,
// so the level is MUST (the condition says why). The release notes (whats-new-in-3-1) say MUST outright.
import type { AgentCapture } from '../../record/exchange.ts';
import { CREDENTIAL_IN_ARGS, PROBE_KEY, PROBE_VALUE } from '../../capture/credential-in-args.ts';
import { defineCheck, fail, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { about, answerOf, at, notRun, scenarioSteps, type Step } from '../scenario-view.ts';

/** 3.1.0's publication date, and the day the rule became MUST (90 days later). */
export const PUBLISHED_3_1 = '2026-06-18';
export const MUST_FROM = '2026-09-16';

const WANT = 'an AdCP error CREDENTIAL_IN_ARGS (recovery terminal)';

function judgeStep(s: Step): Verdict {
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success':
      return fail(at(s, '/result'), WANT, `served: a success with ext.${PROBE_KEY} in the arguments`);
    case 'bare-jsonrpc':
      return fail(at(s, '/error'), WANT, answer.found);
    case 'adcp-error': {
      const code = own(answer.error, 'code');
      if (code === 'VERSION_UNSUPPORTED')
        return untested('the probe pinned the newest 3.1+ release the seller declares and got VERSION_UNSUPPORTED: see the version checks');
      if (code !== 'CREDENTIAL_IN_ARGS') return fail(at(s, `${answer.pointer}/code`), WANT, preview(code));
      const recovery = own(answer.error, 'recovery');
      if (recovery !== undefined && recovery !== 'terminal')
        return fail(
          at(s, `${answer.pointer}/recovery`),
          '"terminal" (agents MUST NOT auto-retry: a retry re-logs the credential)',
          preview(recovery),
        );
      // error.field and error.message MUST NOT echo the credential value or any prefix of it.
      for (const field of ['field', 'message', 'suggestion', 'details']) {
        const v = own(answer.error, field);
        const text = typeof v === 'string' ? v : v !== undefined ? JSON.stringify(v) : '';
        if (text.includes(PROBE_VALUE.slice(0, 16)))
          return fail(
            at(s, `${answer.pointer}/${field}`),
            'no trace of the credential value (the path is enough: ext.api_key)',
            'the value sent in ext.api_key',
          );
      }
      return pass();
    }
  }
}

export default defineCheck({
  id: 'auth.credential-in-args',
  scope: 'agent',
  severity: { byAdcpVersion: [{ from: '3.1', level: 'MUST' }], below: { notApplicable: 'CREDENTIAL_IN_ARGS is an AdCP 3.1 rule' } },
  condition: `SHOULD under AdCP 3.1 until 90 days after its publication (${PUBLISHED_3_1}), MUST from ${MUST_FROM}: judged MUST`,
  live: false,
  title: 'a request with a credential-shaped key in its arguments (ext.api_key) is rejected with CREDENTIAL_IN_ARGS (terminal)',
  spec: {
    label:
      'AdCP 3.1 authentication.mdx › Credential placement ("SHOULD reject the request with CREDENTIAL_IN_ARGS under AdCP 3.1; the requirement upgrades to MUST 90 days after the 3.1 publication date": 3.1.0 published 2026-06-18, MUST from 2026-09-16; the release notes say MUST outright, the text wins); enums/error-code.json CREDENTIAL_IN_ARGS (terminal; field and message MUST NOT echo the credential)',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L2/authentication#credential-placement',
  },
  fix: 'scan the arguments (outside push_notification_config.authentication) for credential keys such as api_key, client_secret, bearer, authorization, *_access_token, jwk(s) and answer `{"adcp_error":{"code":"CREDENTIAL_IN_ARGS","recovery":"terminal","field":"ext.api_key",…}}` with isError: true, never echoing the value',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = CREDENTIAL_IN_ARGS.name;
    const skipped = notRun(a, name);
    if (skipped) return about(name, skipped);
    const s = scenarioSteps(a, name).find((x) => x.step === CREDENTIAL_IN_ARGS.step);
    if (!s) return about(name, untested('the call with a credential in ext is missing from the capture'));
    return about(`${s.x.tool} with ext.${PROBE_KEY}`, judgeStep(s));
  },
});
