// capabilities.* — what `get_adcp_capabilities` declares, and what a production agent must not expose.
import { fail, pass, skip, type AgentCheck, type AgentVerdict, type Verdict } from './check.ts';
import { describeType, isObject, own, preview } from './json.ts';
import { listedTools } from './transport.ts';
import { adcpPayload, noPayloadReason, NO_ANSWER, viewResult } from './views.ts';

const CAPABILITIES_TOOL = 'get_adcp_capabilities';
const TEST_CONTROLLER = 'comply_test_controller';
const CAPS_SCHEMA_31 = 'AdCP 3.1 protocol/get-adcp-capabilities-response.json';
const CAPS_SCHEMA_30 = 'AdCP 3.0 (@adcp/sdk schemas-data/3.0) protocol/get-adcp-capabilities-response.json';

const one = (subject: string, verdict: Verdict): AgentVerdict[] => [{ subject, verdict }];

function toolIndex(tools: unknown[], name: string): number {
  return tools.findIndex((t) => own(t, 'name') === name);
}

export const tool: AgentCheck = {
  id: 'capabilities.tool',
  scope: 'agent',
  severity: 'SHOULD',
  live: false,
  title: '`get_adcp_capabilities` is exposed (without it a client must assume AdCP v2)',
  spec: 'AdCP 3.x · Versioning › capability discovery (get_adcp_capabilities; absent → assume v2)',
  run(a) {
    const listed = listedTools(a);
    if ('skip' in listed) return one('tools/list', skip(listed.skip));
    if (toolIndex(listed.tools, CAPABILITIES_TOOL) >= 0) return one('tools/list', pass());
    return one('tools/list', fail('/tools', `a tool named ${CAPABILITIES_TOOL}`, `${listed.tools.length} tool(s), none named ${CAPABILITIES_TOOL}`));
  },
};

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
 * RULES.md §2 asks for `adcp.supported_versions`: the release-precision list AdCP 3.1 defines
 * (protocol/get-adcp-capabilities-response.json: string[] "M.m" with optional pre-release tag, at least
 * one; "authoritative for buyer-side release pinning"). The 3.0 schema has only the required
 * `adcp.major_versions` (integer[] ≥ 1), so a 3.0-only answer fails here, and the finding says so.
 * `major_versions`, when present, must be well formed too (required by both schemas).
 */
export const versions: AgentCheck = {
  id: 'capabilities.versions',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title: 'the capabilities response lists `adcp.supported_versions`',
  spec: `${CAPS_SCHEMA_31} · adcp.supported_versions (string[] "M.m", minItems 1); ${CAPS_SCHEMA_30} · adcp.major_versions (required, integer[] ≥ 1)`,
  run(a) {
    const calls = a.exchanges.filter((x) => x.tool === CAPABILITIES_TOOL && x.intent !== 'invalid');
    if (calls.length === 0) return one(CAPABILITIES_TOOL, skip(`${CAPABILITIES_TOOL} was not called`));
    const x = calls.find((c) => viewResult(c).kind === 'success') ?? calls[0]!;
    const v = viewResult(x);
    if (v.kind === 'none') return one(CAPABILITIES_TOOL, skip(v.reason === NO_ANSWER ? NO_ANSWER : `no capabilities result: ${v.reason}`));
    if (v.kind === 'error') return one(CAPABILITIES_TOOL, skip('the capabilities call returned an error: see error.*'));
    const payload = adcpPayload(v.result);
    if (!payload) return one(CAPABILITIES_TOOL, skip(noPayloadReason(v.result)));
    const adcp = own(payload.data, 'adcp');
    const at = `${payload.pointer}/adcp`;
    if (!isObject(adcp)) return one(CAPABILITIES_TOOL, fail(at, 'an adcp object with supported_versions', adcp === undefined ? 'absent' : preview(adcp)));
    const major = own(adcp, 'major_versions');
    if (major !== undefined) {
      const problem = listProblem(major, isMajor, 'an integer ≥ 1');
      if (problem) return one(CAPABILITIES_TOOL, fail(`${at}/major_versions`, 'a non-empty array of integers ≥ 1', problem));
    }
    const release = own(adcp, 'supported_versions');
    if (release === undefined) {
      const found = major === undefined ? 'absent (and no major_versions)' : `absent; only the 3.0 field major_versions ${preview(major)}`;
      return one(CAPABILITIES_TOOL, fail(`${at}/supported_versions`, 'a non-empty array of "M.m" release versions', found));
    }
    const problem = listProblem(release, isRelease, 'a "M.m" version string');
    if (problem) return one(CAPABILITIES_TOOL, fail(`${at}/supported_versions`, 'a non-empty array of "M.m" release versions', problem));
    return one(CAPABILITIES_TOOL, pass());
  },
};

export const testController: AgentCheck = {
  id: 'capabilities.test-controller',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title: 'an agent marked `production` does not expose `comply_test_controller`',
  spec: 'AdCP 3.1 compliance/comply-test-controller-request.json ("Sandbox only — sellers MUST NOT expose this tool in production")',
  run(a) {
    if (!a.agent.production) return one('tools/list', skip('the agent is not marked production'));
    const listed = listedTools(a);
    if ('skip' in listed) return one('tools/list', skip(listed.skip));
    const i = toolIndex(listed.tools, TEST_CONTROLLER);
    if (i < 0) return one('tools/list', pass());
    return one('tools/list', fail(`/tools/${i}/name`, `no ${TEST_CONTROLLER} on a production agent`, `${TEST_CONTROLLER} is listed`));
  },
};

export const capabilityChecks: readonly AgentCheck[] = [tool, versions, testController];
