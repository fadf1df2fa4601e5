// error.version-unsupported — version negotiation across two calls: the same read-only request pinned to
// `adcp_major_version: 99` must be refused with VERSION_UNSUPPORTED (recovery correctable: re-pin and
// retry), and pinned to the major the seller declares (3) served as usual. The context echo of both calls
// is envelope.context-echo's, which judges them like every other call.
import type { AgentCapture } from '../../record/exchange.ts';
import { SCENARIO, STEP } from '../../capture/scenario-facts.ts';
import { defineCheck, fail, pass, untested, type AgentVerdict, type Verdict } from '../check.ts';
import { own, preview } from '../../json.ts';
import { about, answerOf, at, codeOf, notRun, recoveryOf, scenarioSteps, servedLike, type Step } from '../scenario-view.ts';

const subject = (s: Step): string => `${s.x.tool} (adcp_major_version ${preview(own(s.x.request.arguments, 'adcp_major_version'))})`;
const WANT = 'an AdCP error VERSION_UNSUPPORTED, recovery correctable';

function refused(s: Step): Verdict {
  const answer = answerOf(s.x, s.call);
  switch (answer.kind) {
    case 'none':
      return answer.verdict;
    case 'success':
      return fail(at(s, '/result/isError'), WANT, 'a success: the request pinned to a version the seller does not declare was served');
    case 'bare-jsonrpc':
      return fail(at(s, '/error'), WANT, answer.found);
  }
  const code = codeOf(answer.error, s.call);
  if ('verdict' in code) return code.verdict;
  if (code.code !== 'VERSION_UNSUPPORTED') return fail(at(s, `${answer.pointer}/code`), 'VERSION_UNSUPPORTED', preview(code.code));
  const recovery = recoveryOf(answer.error, s.call);
  if ('verdict' in recovery) return recovery.verdict;
  if (recovery.recovery !== 'correctable') {
    return fail(
      at(s, `${answer.pointer}/recovery`),
      'correctable (re-pin to a supported version and retry)',
      recovery.stated ? preview(recovery.recovery) : 'absent',
    );
  }
  return pass();
}

const accepted = (s: Step): Verdict => servedLike(s, 'served like the same request without a version pin (the seller declares this major)');

export default defineCheck({
  id: 'error.version-unsupported',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title:
    'a request pinned to an `adcp_major_version` the seller does not declare (99) gets VERSION_UNSUPPORTED (correctable); its own major (3) is served',
  spec: {
    label:
      'AdCP · Versioning (adcp_major_version / adcp_version: the seller returns VERSION_UNSUPPORTED, recovery correctable); AdCP enums/error-code.json',
    url: 'https://adcontextprotocol.org/docs/reference/versioning',
  },
  fix: 'check the pin before the task runs: `{"adcp_error":{"code":"VERSION_UNSUPPORTED","message":"…","recovery":"correctable","details":{"supported_versions":["3.0","3.1"]}}}` for another major; serve your own',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = SCENARIO.version;
    const skipped = notRun(a, name);
    if (skipped) return about(name, skipped);
    const steps = scenarioSteps(a, name);
    const out: AgentVerdict[] = [];
    for (const [step, judge, what] of [
      [STEP.unsupportedVersion, refused, 'the call pinned to an unsupported version'],
      [STEP.supportedVersion, accepted, "the call pinned to the seller's own version"],
    ] as const) {
      const s = steps.find((x) => x.step === step);
      out.push(
        s
          ? { subject: subject(s), verdict: judge(s) }
          : { subject: name, verdict: untested(`${what} was not made (the session ended first)`) },
      );
    }
    return out;
  },
});
