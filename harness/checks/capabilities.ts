// capabilities.* — what `get_adcp_capabilities` declares, and what a production agent must not expose.
import { fail, pass, skip, type AgentCheck, type AgentVerdict, type Verdict } from './check.ts';
import { describeType, isObject, own, preview } from './json.ts';
import { listedTools } from './transport.ts';
import { adcpPayload, noPayloadReason, NO_ANSWER, viewResult } from './views.ts';

const CAPABILITIES_TOOL = 'get_adcp_capabilities';
const TEST_CONTROLLER = 'comply_test_controller';
const CAPS_SCHEMA = 'AdCP 3.0 protocol/get-adcp-capabilities-response.json';

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
 * The version list. The 3.0 schema requires `adcp.major_versions` (integers ≥ 1, at least one); 3.1
 * adds the optional `adcp.supported_versions` ("3.0", "3.1-beta", …). Either lists the versions; one
 * that is present must be well formed.
 */
export const versions: AgentCheck = {
  id: 'capabilities.versions',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title: 'the capabilities response lists the AdCP versions it speaks (`adcp.major_versions` / `adcp.supported_versions`)',
  spec: `${CAPS_SCHEMA} · adcp.major_versions (required, integer[] ≥ 1); AdCP 3.1 adds adcp.supported_versions (string[] "M.m")`,
  run(a, ctx) {
    const calls = a.exchanges.filter((x) => x.tool === CAPABILITIES_TOOL && x.intent !== 'invalid');
    if (calls.length === 0) return one(CAPABILITIES_TOOL, skip(`${CAPABILITIES_TOOL} was not called`));
    const x = calls.find((c) => viewResult(c).kind === 'success') ?? calls[0]!;
    const v = viewResult(x);
    if (v.kind === 'none') return one(CAPABILITIES_TOOL, skip(v.reason === NO_ANSWER ? NO_ANSWER : `no capabilities result: ${v.reason}`));
    if (v.kind === 'error') return one(CAPABILITIES_TOOL, skip('the capabilities call returned an error: see error.*'));
    const payload = adcpPayload(x, ctx, v.result);
    if (!payload) return one(CAPABILITIES_TOOL, skip(noPayloadReason(v.result)));
    const adcp = own(payload.data, 'adcp');
    const at = `${payload.pointer}/adcp`;
    if (!isObject(adcp)) return one(CAPABILITIES_TOOL, fail(at, 'an adcp object with major_versions', adcp === undefined ? 'absent' : preview(adcp)));
    const major = own(adcp, 'major_versions');
    const release = own(adcp, 'supported_versions');
    if (major === undefined && release === undefined) {
      return one(CAPABILITIES_TOOL, fail(`${at}/major_versions`, 'adcp.major_versions (3.0, required) or adcp.supported_versions (3.1)', 'neither present'));
    }
    if (major !== undefined) {
      const problem = listProblem(major, isMajor, 'an integer ≥ 1');
      if (problem) return one(CAPABILITIES_TOOL, fail(`${at}/major_versions`, 'a non-empty array of integers ≥ 1', problem));
    }
    if (release !== undefined) {
      const problem = listProblem(release, isRelease, 'a "M.m" version string');
      if (problem) return one(CAPABILITIES_TOOL, fail(`${at}/supported_versions`, 'a non-empty array of "M.m" version strings', problem));
    }
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
