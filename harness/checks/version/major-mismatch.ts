// version.major-mismatch — a request whose `adcp_version` and `adcp_major_version` disagree on the major
// is malformed: VERSION_UNSUPPORTED (correctable), never served. Judged on the steps of the major-mismatch
// scenario (harness/capture/version-scenario.ts): a declared release with the next major's integer, and the
// next major's release with the declared integer — so a seller that reads only one of the two fields
// serves one of them.
import type { AgentCapture } from '../../record/exchange.ts';
import { VERSION_SCENARIO, VERSION_STEP } from '../../capture/version-scenario.ts';
import { defineCheck, untested, type AgentVerdict } from '../check.ts';
import { about, notRun, scenarioSteps } from '../scenario-view.ts';
import { gate31, refused, stepSubject } from './_negotiation.ts';

const STEPS = [
  { step: VERSION_STEP.majorDisagrees, what: 'the call whose adcp_major_version names another major than its adcp_version' },
  { step: VERSION_STEP.releaseDisagrees, what: 'the call whose adcp_version names another major than its adcp_major_version' },
] as const;

export default defineCheck({
  id: 'version.major-mismatch',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title: '`adcp_version` and `adcp_major_version` that disagree on the major get VERSION_UNSUPPORTED (correctable), never service',
  spec: {
    label:
      'AdCP 3.1 · Versioning, "Major-precision negotiation": "When both fields are present and disagree at the major level, the server MUST treat the request as malformed and return VERSION_UNSUPPORTED"',
    url: 'https://adcontextprotocol.org/docs/reference/versioning',
  },
  fix: 'compare the major of `adcp_version` with `adcp_major_version` before anything else; when they differ answer `{"adcp_error":{"code":"VERSION_UNSUPPORTED","recovery":"correctable","details":{"supported_versions":[…]}}}`',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = VERSION_SCENARIO.mismatch;
    const gate = gate31(a);
    if ('verdict' in gate) return about(name, gate.verdict);
    const skipped = notRun(a, name);
    if (skipped) return about(name, skipped);
    const steps = scenarioSteps(a, name);
    return STEPS.map(({ step, what }) => {
      const s = steps.find((x) => x.step === step);
      if (!s) return { subject: `${name}: ${step}`, verdict: untested(`${what} was not made (the session ended first)`) };
      return { subject: stepSubject(s), verdict: refused(s, 'adcp_version and adcp_major_version disagree on the major', false) };
    });
  },
});
