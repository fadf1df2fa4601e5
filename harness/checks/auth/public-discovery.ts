// auth.public-discovery — for an HTTP agent configured with credentials, the discovery tasks the probes
// made (get_adcp_capabilities, list_creative_formats, get_products) answer in a session opened without
// them: initialize is not refused, and each call gets an answer (get_products may return less: a partial
// catalog, no pricing). A refusal (HTTP 401/403, an AdCP error) is a warning: the text lists these tasks
// as public without an RFC 2119 keyword, so the rule is a SHOULD.
import type { AgentCapture } from '../../record/exchange.ts';
import { AUTH_SCENARIO } from '../../capture/unauthenticated.ts';
import { authSession } from './_session.ts';
import { defineCheck, fail, pass, untested, type AgentVerdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { about, answerOf, at, scenarioSteps } from '../scenario-view.ts';

const WANT = 'an answer without credentials (discovery is public; get_products may return less)';

export default defineCheck({
  id: 'auth.public-discovery',
  scope: 'agent',
  severity: 'SHOULD',
  live: false,
  title: 'the discovery tasks (get_adcp_capabilities, list_creative_formats, get_products) answer without credentials',
  spec: {
    label:
      'AdCP authentication.mdx › Public Operations ("These operations work without credentials": get_adcp_capabilities, list_creative_formats, get_products, which may return limited results); security.mdx › Low-Risk Operations ("publicly accessible"). No MUST/SHOULD keyword in the text: judged as SHOULD',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L2/authentication#public-operations-no-authentication-required',
  },
  fix: 'serve initialize, tools/list, get_adcp_capabilities, list_creative_formats and get_products without credentials (get_products may leave out pricing and custom products); keep the credential check on every other task',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = AUTH_SCENARIO.publicDiscovery;
    const session = authSession(a, name, 'its credentials');
    if ('verdicts' in session) return session.verdicts;
    const { record, index, headers: withheld } = session;
    const refusal = record.refusal;
    if (refusal) {
      return about(
        `initialize without ${withheld}`,
        fail(
          `/scenarios/${index}/refusal/status`,
          `${WANT}: initialize not refused`,
          `HTTP ${preview(refusal.status)}${refusal.bodyExcerpt ? `: ${refusal.bodyExcerpt}` : ''}`,
        ),
      );
    }
    const out: AgentVerdict[] = [];
    const refusals = Array.isArray(record.refusals) ? record.refusals.slice(0, 16) : [];
    refusals.forEach((r, i) => {
      const tool = own(r, 'tool');
      out.push({
        subject: `${typeof tool === 'string' ? tool : preview(tool)} without ${withheld}`,
        verdict: fail(`/scenarios/${index}/refusals/${i}/status`, WANT, `HTTP ${preview(own(r, 'status'))}`),
      });
    });
    for (const s of scenarioSteps(a, name)) {
      const answer = answerOf(s.x, s.call);
      const subject = `${s.x.tool} without ${withheld}`;
      switch (answer.kind) {
        case 'none':
          out.push({ subject, verdict: answer.verdict });
          break;
        case 'success':
          out.push({ subject, verdict: pass() });
          break;
        case 'bare-jsonrpc':
          out.push({ subject, verdict: fail(at(s, '/error'), WANT, answer.found) });
          break;
        case 'adcp-error':
          out.push({ subject, verdict: fail(at(s, `${answer.pointer}/code`), WANT, `AdCP error ${preview(own(answer.error, 'code'))}`) });
          break;
      }
    }
    return out.length ? out : about(name, untested('no discovery call without credentials is in the capture'));
  },
});
