// capabilities.versions — the capabilities answer declares the AdCP releases the seller speaks.
//
// AdCP 3.1 defines `adcp.supported_versions` (protocol/get-adcp-capabilities-response.json: string[]
// "M.m" with an optional pre-release tag, at least one; "authoritative for buyer-side release pinning").
// The 3.0 schema has only the required `adcp.major_versions` (integer[] ≥ 1): a seller judged at 3.0
// declares its versions with that, one judged at 3.1 or later needs `supported_versions` (MUST*).
// `major_versions`, when present, must be well formed too.
//
// Not-applicable vs untested: an agent that does not list `get_adcp_capabilities` has no capabilities
// answer to judge (capabilities.tool owns that); an agent that lists it but whose call was not made,
// got no answer, or returned an error has one we could not read, so the rule is untested.
import type { AgentCapture } from '../../record/exchange.ts';
import { blockerOf, defineCheck, fail, notApplicable, onCall, pass, untested, type Verdict } from '../check.ts';
import { describeType, isObject, own, preview } from '../../json.ts';
import { listedTools, one } from '../transport/_listed-tools.ts';
import { adcpPayload, adcpVersionOf, noPayload, NO_ANSWER, viewResult } from '../views.ts';
import { CAPABILITIES_TOOL, toolIndex } from './_tools.ts';

/** Why a value is not a non-empty array whose items all pass `item`, or null. */
function listProblem(v: unknown, item: (x: unknown) => boolean, what: string): string | null {
  if (!Array.isArray(v)) return `${describeType(v)} ${preview(v)}`;
  if (v.length === 0) return 'an empty array';
  const bad = v.findIndex((x) => !item(x));
  return bad >= 0 ? `item ${bad} is ${preview(v[bad])}, not ${what}` : null;
}

const isMajor = (x: unknown): boolean => typeof x === 'number' && Number.isInteger(x) && x >= 1;
const isRelease = (x: unknown): boolean => typeof x === 'string' && /^\d+\.\d+(-[a-zA-Z0-9.-]+)?$/.test(x);

/**
 * Why there is no capabilities payload to judge: not-applicable (tool not offered) or untested (blocked by
 * `blockedBy`'s failure on the capabilities call `call`, when a check owns the cause).
 */
function noCapabilities(a: AgentCapture, called: boolean, why: string, blockedBy?: string, call?: number): Verdict {
  const listed = listedTools(a);
  if (!('verdict' in listed) && toolIndex(listed.tools, CAPABILITIES_TOOL) < 0) {
    return notApplicable(`the agent does not list ${CAPABILITIES_TOOL}: see capabilities.tool`);
  }
  if (!called && 'verdict' in listed) return listed.verdict;
  return untested(why, blockedBy, call);
}

export default defineCheck({
  id: 'capabilities.versions',
  scope: 'agent',
  severity: 'MUST',
  condition: '`adcp.supported_versions` required from AdCP 3.1; a seller judged at 3.0 declares `adcp.major_versions`',
  live: false,
  title: 'the capabilities response declares its AdCP versions (`adcp.supported_versions`; 3.0: `adcp.major_versions`)',
  spec: {
    label:
      'AdCP 3.1 · protocol/get-adcp-capabilities-response.json › adcp.supported_versions (string[] "M.m", minItems 1); 3.0: adcp.major_versions',
    url: 'https://adcontextprotocol.org/schemas/3.1.19/protocol/get-adcp-capabilities-response.json',
  },
  fix: 'answer get_adcp_capabilities with `{"adcp":{"major_versions":[3],"supported_versions":["3.0","3.1"]}, …}`',
  judge(a, ctx) {
    const calls = a.exchanges.filter((x) => x.tool === CAPABILITIES_TOOL && x.intent !== 'invalid');
    if (calls.length === 0) return one(CAPABILITIES_TOOL, noCapabilities(a, false, `${CAPABILITIES_TOOL} is listed but was not called`));
    const x = calls.find((c) => viewResult(c).kind === 'success') ?? calls[0]!;
    const v = viewResult(x);
    const call = a.exchanges.indexOf(x);
    if (v.kind === 'none') {
      const why = v.reason === NO_ANSWER ? NO_ANSWER : `no capabilities result: ${v.reason}`;
      return one(CAPABILITIES_TOOL, noCapabilities(a, true, why, blockerOf(v.verdict), call));
    }
    if (v.kind === 'error')
      return one(CAPABILITIES_TOOL, noCapabilities(a, true, 'the capabilities call returned an error result: see error.*'));
    const payload = adcpPayload(v.result);
    if (!payload) return one(CAPABILITIES_TOOL, onCall(noPayload(v.result), call));
    const adcp = own(payload.data, 'adcp');
    const at = `${payload.pointer}/adcp`;
    if (!isObject(adcp))
      return one(CAPABILITIES_TOOL, fail(at, 'an adcp object with supported_versions', adcp === undefined ? 'absent' : preview(adcp)));
    const major = own(adcp, 'major_versions');
    if (major !== undefined) {
      const problem = listProblem(major, isMajor, 'an integer ≥ 1');
      if (problem) return one(CAPABILITIES_TOOL, fail(`${at}/major_versions`, 'a non-empty array of integers ≥ 1', problem));
    }
    const release = own(adcp, 'supported_versions');
    const judgedAt = adcpVersionOf(payload.data, ctx);
    const before31 = judgedAt.major < 3 || (judgedAt.major === 3 && judgedAt.minor < 1);
    if (release === undefined && before31 && major !== undefined) return one(CAPABILITIES_TOOL, pass());
    if (release === undefined) {
      const found = major === undefined ? 'absent (and no major_versions)' : `absent; only the 3.0 field major_versions ${preview(major)}`;
      return one(CAPABILITIES_TOOL, fail(`${at}/supported_versions`, 'a non-empty array of "M.m" release versions', found));
    }
    const problem = listProblem(release, isRelease, 'a "M.m" version string');
    if (problem) return one(CAPABILITIES_TOOL, fail(`${at}/supported_versions`, 'a non-empty array of "M.m" release versions', problem));
    return one(CAPABILITIES_TOOL, pass());
  },
});
