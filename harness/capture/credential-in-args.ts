// The credential-in-args scenario (AdCP 3.1, authentication.mdx › Credential placement): one read-only
// call the probes already made, repeated with a credential-shaped key in its `ext`
// (`ext.api_key` = a harmless made-up value, never a real credential, never inside `context`, which a
// seller must not parse), pinned to the newest 3.1+ release the seller declares. A conformant seller
// rejects it with CREDENTIAL_IN_ARGS (terminal). Runs on every agent, stdio included: one call, read-only.
// Sellers that declare no 3.1+ release in `adcp.supported_versions` are not asked (the code is 3.1's).
import type { Exchange, ScenarioRecord } from '../record/exchange.ts';
import { CREDENTIAL_PROBE_TASKS } from '../adcp-tasks.ts';
import { isPlainCall, isSuccess, probeSuccess, successPayload } from './scenario-facts.ts';
import type { ScenarioHost } from './scenario-host.ts';
import { isObject, own } from '../json.ts';

export const CREDENTIAL_IN_ARGS = { name: 'credential-in-args', step: 'ext-api-key' } as const;

/** The credential-shaped key the probe puts in `ext`, and its value: made up, recognisable, harmless. */
export const PROBE_KEY = 'api_key';
export const PROBE_VALUE = 'adcp-conformance-probe-not-a-real-key';

const RELEASE = /^(\d{1,4})\.(\d{1,4})$/;

/** The newest AdCP release at or past 3.1 (no pre-release) the seller declares in `adcp.supported_versions`. */
export function newest31Release(exchanges: readonly Exchange[]): string | undefined {
  const x = probeSuccess(exchanges, 'get_adcp_capabilities');
  const releases = own(own(x ? successPayload(x) : null, 'adcp'), 'supported_versions');
  if (!Array.isArray(releases)) return undefined;
  let best: { major: number; minor: number; label: string } | undefined;
  for (const r of releases.slice(0, 64)) {
    const m = typeof r === 'string' ? RELEASE.exec(r) : null;
    if (!m) continue;
    const major = Number(m[1]);
    const minor = Number(m[2]);
    if (major < 3 || (major === 3 && minor < 1)) continue;
    if (!best || major > best.major || (major === best.major && minor > best.minor)) best = { major, minor, label: `${major}.${minor}` };
  }
  return best?.label;
}

/** The probe's arguments: the base call's, without `context` or a version pin, plus the release pin (with its major) and `ext.api_key`. */
export function credentialProbeArguments(base: Record<string, unknown>, release: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(base)) if (k !== 'context' && k !== 'adcp_version' && k !== 'adcp_major_version') args[k] = v;
  const ext: Record<string, unknown> = {};
  const given = args['ext'];
  if (isObject(given)) for (const [k, v] of Object.entries(given)) ext[k] = v;
  ext[PROBE_KEY] = PROBE_VALUE;
  // With the release, its major (versioning.mdx: a buyer that emits adcp_version SHOULD also emit adcp_major_version).
  const major = Number(/^(\d{1,4})\./.exec(release)?.[1]);
  return { ...args, adcp_version: release, ...(Number.isInteger(major) ? { adcp_major_version: major } : {}), ext };
}

export async function credentialInArgsScenario(host: ScenarioHost): Promise<ScenarioRecord> {
  const name = CREDENTIAL_IN_ARGS.name;
  const release = newest31Release(host.exchanges());
  if (release === undefined) {
    return {
      name,
      status: 'not-applicable',
      reason: 'the seller declares no AdCP 3.1+ release in adcp.supported_versions (CREDENTIAL_IN_ARGS is a 3.1 rule)',
    };
  }
  const listed = CREDENTIAL_PROBE_TASKS.filter((t) => host.listed.has(t));
  if (listed.length === 0)
    return { name, status: 'not-applicable', reason: `the agent lists none of ${CREDENTIAL_PROBE_TASKS.join(', ')}` };
  let base: Exchange | undefined;
  for (const tool of listed) {
    base = host.exchanges().find((x) => isPlainCall(x, tool) && isSuccess(x));
    if (base) break;
  }
  if (!base)
    return {
      name,
      status: 'untested',
      reason: `no call of ${listed.join(', ')} succeeded, so none could be repeated with a credential in ext`,
    };
  const x = await host.call(base.tool, credentialProbeArguments(base.request.arguments, release), { ...CREDENTIAL_IN_ARGS });
  if (!x) return { name, status: 'untested', reason: 'the session could no longer call' };
  return { name, status: 'ran', baseCall: host.exchanges().indexOf(base) };
}
