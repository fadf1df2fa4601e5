// version.release-negotiation — AdCP 3.1 release-precision negotiation, on the steps of the
// release-negotiation scenario (harness/capture/version-scenario.ts): an exact pin of a declared release is
// served as pinned; a higher minor of the same major is served at the highest supported release ≤ the pin
// (never a pre-release); a pre-release the seller does not list, and another major, are refused with
// VERSION_UNSUPPORTED (correctable) carrying supported_versions. Which release served is read off the
// seller's echo; a seller that echoes nothing is judged on served vs refused, and the subject says what
// stayed unverified (version.echo owns the echo itself).
import type { AgentCapture } from '../../record/exchange.ts';
import { resolvePin } from '../../capture/version-facts.ts';
import { VERSION_SCENARIO, VERSION_STEP } from '../../capture/version-scenario.ts';
import { defineCheck, untested, type AgentVerdict } from '../check.ts';
import { own } from '../../json.ts';
import { about, notRun, scenarioSteps } from '../scenario-view.ts';
import { gate31, judgeResolution } from './_negotiation.ts';

const STEPS: ReadonlyArray<{ step: string; what: string; optional?: boolean }> = [
  { step: VERSION_STEP.exact, what: 'the call pinned to a declared release' },
  { step: VERSION_STEP.higherMinor, what: 'the call pinned to a higher minor of the same major', optional: true },
  { step: VERSION_STEP.preRelease, what: 'the call pinned to a pre-release the seller does not list' },
  { step: VERSION_STEP.otherMajor, what: 'the call pinned to another major' },
];

export default defineCheck({
  id: 'version.release-negotiation',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title:
    'AdCP 3.1 release pins resolve by the rule: an exact match is served as pinned, otherwise the highest supported release ≤ the pin; an unlisted pre-release or another major gets VERSION_UNSUPPORTED (correctable) with supported_versions',
  spec: {
    label:
      'AdCP 3.1 · Versioning, "Bidirectional negotiation (3.1+)": "Exact match → serve in that release"; "Same major, no exact match, at least one server release ≤ buyer\'s pin → downshift to highest supported release ≤ the pin"; "Different major → return VERSION_UNSUPPORTED with supported_versions in error.data"; "Pre-release tags … are matched exactly … gets VERSION_UNSUPPORTED, not a downshift"; "Servers MUST NOT downshift a release pin onto a pre-release"',
    url: 'https://adcontextprotocol.org/docs/reference/versioning',
  },
  fix: 'resolve `adcp_version` before the task runs: exact → serve it; same major → highest listed release ≤ pin; otherwise `{"adcp_error":{"code":"VERSION_UNSUPPORTED","recovery":"correctable","details":{"supported_versions":["3.0","3.1"]}}}`; echo the release served as `adcp_version`',
  judge(a: AgentCapture): AgentVerdict[] {
    const name = VERSION_SCENARIO.negotiation;
    const gate = gate31(a);
    if ('verdict' in gate) return about(name, gate.verdict);
    const skipped = notRun(a, name);
    if (skipped) return about(name, skipped);
    const steps = scenarioSteps(a, name);
    const out: AgentVerdict[] = [];
    for (const { step, what, optional } of STEPS) {
      const s = steps.find((x) => x.step === step);
      if (!s) {
        if (!optional) out.push({ subject: `${name}: ${step}`, verdict: untested(`${what} was not made (the session ended first)`) });
        continue;
      }
      const pin = own(s.x.request?.arguments, 'adcp_version');
      if (typeof pin !== 'string') {
        out.push({ subject: `${name}: ${step}`, verdict: untested(`${what} carried no adcp_version (harness error)`) });
        continue;
      }
      out.push(judgeResolution(s, resolvePin(gate.releases, pin)));
    }
    return out;
  },
});
