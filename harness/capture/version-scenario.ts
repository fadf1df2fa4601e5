// The AdCP 3.1 version-negotiation scenarios (reference/versioning.mdx, "Bidirectional negotiation"): one
// read-only call the probes already made, re-sent with release-precision pins a seller that declares a 3.1+
// release must resolve by the rule, and with pins whose two fields disagree on the major.
// - `release-negotiation` (4 calls): an exact pin of a declared release (the newest: a call served at an
//   older release would be judged against the schemas of the release the agent is judged at, which the
//   harness picks per agent, not per call), a higher minor of that major ("3.99": the highest supported
//   release ≤ the pin), a pre-release the seller does not list ("3.1-beta.99": VERSION_UNSUPPORTED, never a
//   downshift), another major ("99.0": VERSION_UNSUPPORTED). Each sends `adcp_major_version` agreeing with
//   its pin, as the text tells buyers to (dual-emit), so only the release decides.
// - `major-mismatch` (2 calls): `adcp_version` of a declared release with `adcp_major_version` of the next
//   major, and `adcp_version` of the next major with the declared `adcp_major_version`: either way the
//   request is malformed and must be refused with VERSION_UNSUPPORTED, whichever field the seller reads.
// Both run only for a seller that declares a 3.1+ release in `adcp.supported_versions`; each step carries
// its pins in its request, so the checks read them there.
import type { Exchange } from '../record/exchange.ts';
import { PINNED_TASKS } from '../adcp-tasks.ts';
import type { ScenarioHost } from './scenario-host.ts';
import type { ScenarioRecord } from '../record/exchange.ts';
import { isPlainCall, isSuccess, variedArguments } from './scenario-facts.ts';
import { declaredReleases, parseRelease, releases31 } from './version-facts.ts';

export const VERSION_SCENARIO = { negotiation: 'release-negotiation', mismatch: 'major-mismatch' } as const;

export const VERSION_STEP = {
  exact: 'exact-release',
  higherMinor: 'higher-minor',
  preRelease: 'unlisted-pre-release',
  otherMajor: 'other-major',
  majorDisagrees: 'major-disagrees',
  releaseDisagrees: 'release-disagrees',
} as const;

/** The first successful plain call of one of `tools`, or the record saying why there is none. */
export function baseProbe(host: ScenarioHost, name: string, tools: readonly string[]): Exchange | ScenarioRecord {
  const listed = tools.filter((t) => host.listed.has(t));
  if (listed.length === 0) return { name, status: 'not-applicable', reason: `the agent lists none of ${tools.join(', ')}` };
  for (const tool of listed) {
    const x = host.exchanges().find((e) => isPlainCall(e, tool) && isSuccess(e));
    if (x) return x;
  }
  return { name, status: 'untested', reason: `no call of ${listed.join(', ')} succeeded: see their own outcomes` };
}

/** The 3.1+ gate: the declared releases, or the record saying why the 3.1 rules do not apply (or are unknown). */
export function gate31(host: ScenarioHost, name: string): string[] | ScenarioRecord {
  const declared = declaredReleases(host.exchanges());
  if (declared.kind === 'unknown') {
    const called = host.exchanges().some((e) => e.tool === 'get_adcp_capabilities');
    return { name, status: called ? 'untested' : 'not-applicable', reason: declared.why };
  }
  if (declared.kind === 'none')
    return { name, status: 'not-applicable', reason: `an AdCP 3.1 rule: the seller declares no 3.1+ release (${declared.found})` };
  if (releases31(declared.releases).length === 0)
    return {
      name,
      status: 'not-applicable',
      reason: `an AdCP 3.1 rule: the seller declares no 3.1+ release (adcp.supported_versions ${JSON.stringify(declared.releases.slice(0, 8))})`,
    };
  return declared.releases;
}

/** The pins the scenarios send, worked out from the releases the seller declares. */
export interface Pins {
  /** The newest major among the declared (non-pre-release) releases. */
  major: number;
  exact: string;
  higherMinor?: string;
  preRelease: string;
  otherMajor: string;
  /** The major that is not the seller's, for the disagreeing pairs. */
  nextMajor: number;
  /** The newest declared release of `major` (the `adcp_version` of the major-disagrees pair). */
  newest: string;
}

export function pinsFor(declared: readonly string[]): Pins | undefined {
  const parsed = declared.flatMap((v) => {
    const r = parseRelease(v);
    return r && r.pre === undefined ? [{ v, ...r }] : [];
  });
  if (parsed.length === 0) return undefined;
  const major = Math.max(...parsed.map((r) => r.major));
  const ofMajor = parsed.filter((r) => r.major === major).sort((a, b) => a.minor - b.minor);
  const newest = ofMajor.at(-1)!;
  let pre = `${major}.${newest.minor}-beta.99`;
  for (let i = 1; declared.includes(pre) && i < 10; i++) pre = `${major}.${newest.minor}-adcp-conformance.${i}`;
  const nextMajor = major >= 98 ? 1 : major + 1;
  return {
    major,
    exact: newest.v,
    ...(newest.minor < 99 ? { higherMinor: `${major}.99` } : {}),
    preRelease: pre,
    otherMajor: major === 99 ? '98.0' : '99.0',
    nextMajor,
    newest: newest.v,
  };
}

/**
 * What both version scenarios start from: the seller's 3.1+ releases and the pins made of them, and the
 * successful read call they vary (its arguments without context or pin) — or the record saying why not.
 */
function prepare(host: ScenarioHost, name: string): { pins: Pins; base: Exchange; args: Record<string, unknown> } | ScenarioRecord {
  const declared = gate31(host, name);
  if (!Array.isArray(declared)) return declared;
  const pins = pinsFor(declared);
  if (!pins) return { name, status: 'untested', reason: 'the seller declares only pre-releases: no release pin to vary' };
  const base = baseProbe(host, name, PINNED_TASKS);
  if (!('tool' in base)) return base;
  return { pins, base, args: variedArguments(base) };
}

async function negotiation(host: ScenarioHost): Promise<ScenarioRecord> {
  const name = VERSION_SCENARIO.negotiation;
  const ready = prepare(host, name);
  if (!('pins' in ready)) return ready;
  const { pins, base, args } = ready;
  const pinned = (release: string): Record<string, unknown> => ({
    ...args,
    adcp_version: release,
    adcp_major_version: parseRelease(release)!.major,
  });
  await host.call(base.tool, pinned(pins.exact), { name, step: VERSION_STEP.exact });
  if (pins.higherMinor) await host.call(base.tool, pinned(pins.higherMinor), { name, step: VERSION_STEP.higherMinor });
  await host.call(base.tool, pinned(pins.preRelease), { name, step: VERSION_STEP.preRelease });
  await host.call(base.tool, pinned(pins.otherMajor), { name, step: VERSION_STEP.otherMajor });
  return { name, status: 'ran', baseCall: host.exchanges().indexOf(base) };
}

async function mismatch(host: ScenarioHost): Promise<ScenarioRecord> {
  const name = VERSION_SCENARIO.mismatch;
  const ready = prepare(host, name);
  if (!('pins' in ready)) return ready;
  const { pins, base, args } = ready;
  await host.call(
    base.tool,
    { ...args, adcp_version: pins.newest, adcp_major_version: pins.nextMajor },
    { name, step: VERSION_STEP.majorDisagrees },
  );
  await host.call(
    base.tool,
    { ...args, adcp_version: `${pins.nextMajor}.0`, adcp_major_version: pins.major },
    { name, step: VERSION_STEP.releaseDisagrees },
  );
  return { name, status: 'ran', baseCall: host.exchanges().indexOf(base) };
}

export const releaseNegotiationScenario = { name: VERSION_SCENARIO.negotiation, run: negotiation };
export const majorMismatchScenario = { name: VERSION_SCENARIO.mismatch, run: mismatch };
