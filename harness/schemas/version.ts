// Which AdCP schema version to validate an agent against, and why. In order:
//   1. `adcp_version` the seller echoes in a success payload (capabilities first, then any other call);
//   2. the newest version `get_adcp_capabilities` lists (`adcp.supported_versions`; a seller that lists
//      only the older `adcp.major_versions` predates 3.1, so the oldest minor of its newest major);
//   3. `adcpVersion` from the agent's config;
//   4. 3.0.
// At every step the version must exist in the schema source, matched by major.minor (3.0.x → the 3.0
// tree); a version the source lacks falls through to the next rule, and the reason says so.
import type { AgentCapture } from '../record/exchange.ts';
import { extractSuccess } from '../extract/success.ts';
import { isObject, own } from '../json.ts';

export interface ParsedVersion {
  major: number;
  minor: number;
  /** Absent for `3.1` (release precision). */
  patch?: number;
  prerelease?: string;
}

/** `3`, `v3.1`, `3.1`, `3.1.19`, `3.1-beta`, `3.1.0-rc.1` → parts; anything else → undefined. */
export function parseVersion(value: unknown): ParsedVersion | undefined {
  if (typeof value !== 'string' || value.length > 64) return undefined;
  const m = /^v?(\d{1,4})(?:\.(\d{1,4}))?(?:\.(\d{1,6}))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(value.trim());
  if (!m) return undefined;
  const parsed: ParsedVersion = { major: Number(m[1]), minor: m[2] === undefined ? -1 : Number(m[2]) };
  if (m[3] !== undefined) parsed.patch = Number(m[3]);
  if (m[4] !== undefined) parsed.prerelease = m[4];
  return parsed;
}

function compareAvailable(a: ParsedVersion, b: ParsedVersion): number {
  return a.major - b.major || a.minor - b.minor || (a.patch ?? 0) - (b.patch ?? 0) || (a.prerelease ? -1 : 0) - (b.prerelease ? -1 : 0);
}

/**
 * The source tree for a requested version: same major.minor (any minor when only a major is given),
 * stable before prerelease (unless a prerelease was asked for), newest patch.
 */
export function matchVersion(requested: string, available: readonly string[]): string | undefined {
  const want = parseVersion(requested);
  if (!want) return undefined;
  let best: { v: string; p: ParsedVersion } | undefined;
  for (const v of available) {
    const p = parseVersion(v);
    if (!p || p.major !== want.major || (want.minor >= 0 && p.minor !== want.minor)) continue;
    if (
      !want.prerelease &&
      p.prerelease &&
      available.some((o) => {
        const q = parseVersion(o);
        return q && !q.prerelease && q.major === p.major && q.minor === p.minor;
      })
    )
      continue;
    if (!best || compareAvailable(p, best.p) > 0) best = { v, p };
  }
  return best?.v;
}

export type VersionRule = 'echoed by seller' | 'capabilities' | 'config' | 'default';

export interface VersionChoice {
  /** Full version of the source tree chosen (`3.0.6`), or undefined when the source has no tree at all. */
  version: string | undefined;
  rule: VersionRule;
  /** `<rule>: <detail>` — one readable line. */
  reason: string;
  /**
   * The newest version the seller declares when the source has none of the declared ones: the schema
   * checks are then untested (never judged silently at another version), and `reason` says how to
   * supply the schemas.
   */
  declaredMissing?: string;
}

/**
 * The success payloads of an agent's valid calls, in the order their `adcp_version` echo tells the release
 * served: the probes the harness pinned (their echo is the release the session was served at), then
 * `get_adcp_capabilities` (sent unpinned), then the rest. Scenario steps, which pin other releases on
 * purpose (negotiation), never decide it.
 */
function successPayloads(capture: AgentCapture): Array<{ tool: string; payload: Record<string, unknown> }> {
  const pin = capture.adcpPin?.release ?? undefined;
  const ranked: Array<{ tool: string; payload: Record<string, unknown>; rank: number }> = [];
  for (const x of capture.exchanges) {
    if (x.intent !== 'valid' || x.outcome.kind !== 'result' || x.scenario !== undefined) continue;
    const payload = extractSuccess(x.outcome.result);
    if (!payload) continue;
    const pinned = pin !== undefined && own(x.request.arguments, 'adcp_version') === pin;
    ranked.push({ tool: x.tool, payload, rank: pinned ? 0 : x.tool === 'get_adcp_capabilities' ? 1 : 2 });
  }
  return ranked.sort((a, b) => a.rank - b.rank).map(({ tool, payload }) => ({ tool, payload }));
}

export function chooseAdcpVersion(capture: AgentCapture, available: readonly string[]): VersionChoice {
  const notes: string[] = [];
  const payloads = successPayloads(capture);
  const quote = (v: unknown) => JSON.stringify(String(v).slice(0, 40));

  // 1. Echoed adcp_version.
  for (const { tool, payload } of payloads) {
    const echoed = own(payload, 'adcp_version');
    if (typeof echoed !== 'string' || !parseVersion(echoed)) continue;
    const hit = matchVersion(echoed, available);
    if (hit)
      return {
        version: hit,
        rule: 'echoed by seller',
        reason: `echoed by seller: adcp_version ${quote(echoed)} in ${tool} → schemas ${hit}`,
      };
    notes.push(`seller echoes adcp_version ${quote(echoed)}, which the schema source lacks`);
    break;
  }

  const suffix = () => (notes.length ? ` (${notes.join('; ')})` : '');

  // 2. Capabilities.
  const caps = payloads.find((p) => p.tool === 'get_adcp_capabilities');
  const adcp = caps ? own(caps.payload, 'adcp') : undefined;
  if (isObject(adcp)) {
    const supported = own(adcp, 'supported_versions');
    const majors = own(adcp, 'major_versions');
    if (Array.isArray(supported) && supported.length > 0) {
      const listed = supported.filter((v): v is string => typeof v === 'string' && parseVersion(v) !== undefined).slice(0, 50);
      const hits = listed
        .map((v) => ({ listed: v, hit: matchVersion(v, available) }))
        .filter((x): x is { listed: string; hit: string } => x.hit !== undefined)
        .sort((a, b) => compareAvailable(parseVersion(b.hit)!, parseVersion(a.hit)!));
      const best = hits[0];
      if (best)
        return {
          version: best.hit,
          rule: 'capabilities',
          reason: `capabilities: newest supported_versions entry the source has is ${quote(best.listed)} → schemas ${best.hit}${suffix()}`,
        };
      notes.push(`capabilities list supported_versions ${JSON.stringify(listed.slice(0, 5))}, none in the schema source`);
    } else if (Array.isArray(majors) && majors.length > 0) {
      const ints = majors.filter((m): m is number => Number.isInteger(m)).sort((a, b) => b - a);
      for (const major of ints) {
        const oldestMinor = available
          .filter((v) => parseVersion(v)?.major === major && !parseVersion(v)?.prerelease)
          .sort((a, b) => compareAvailable(parseVersion(a)!, parseVersion(b)!))[0];
        const hit = oldestMinor ? matchVersion(`${major}.${parseVersion(oldestMinor)!.minor}`, available) : undefined;
        if (hit)
          return {
            version: hit,
            rule: 'capabilities',
            reason: `capabilities: major_versions [${ints.join(',')}] without supported_versions (a 3.1 field) → schemas ${hit}${suffix()}`,
          };
      }
      notes.push(`capabilities list major_versions ${JSON.stringify(ints.slice(0, 5))}, none in the schema source`);
    }
  }

  // A seller that declares only versions the source lacks is not judged at another version.
  const declared = declaredVersions(payloads);
  if (declared.length) {
    const newest = declared[0]!;
    return {
      version: undefined,
      rule: declared.source,
      declaredMissing: newest,
      reason: `${declared.source}: the seller declares AdCP ${declared.join(', ')}, which the schema source lacks${suffix()}; the AdCP schema checks are untested — supply those schemas with --schemas DIR|URL (the schemas directory of that AdCP release)`,
    };
  }

  // 3. Config.
  const configured = capture.agent.adcpVersion;
  if (configured !== undefined) {
    const hit = matchVersion(configured, available);
    if (hit) return { version: hit, rule: 'config', reason: `config: adcpVersion ${quote(configured)} → schemas ${hit}${suffix()}` };
    notes.push(`config adcpVersion ${quote(configured)} is not in the schema source`);
  }

  // 4. Default: 3.0, else the newest stable tree the source has.
  const hit = matchVersion('3.0', available) ?? newestStable(available);
  return {
    version: hit,
    rule: 'default',
    reason: hit ? `default: schemas ${hit}${suffix()}` : `default: the schema source has no version tree${suffix()}`,
  };
}

/** The versions a seller declares (echoed adcp_version, capabilities supported_versions), newest first. */
function declaredVersions(payloads: Array<{ tool: string; payload: Record<string, unknown> }>): string[] & { source: VersionRule } {
  const found: string[] = [];
  let source: VersionRule = 'capabilities';
  const caps = payloads.find((p) => p.tool === 'get_adcp_capabilities');
  const adcp = caps ? own(caps.payload, 'adcp') : undefined;
  const supported = isObject(adcp) ? own(adcp, 'supported_versions') : undefined;
  if (Array.isArray(supported))
    found.push(...supported.filter((v): v is string => typeof v === 'string' && parseVersion(v) !== undefined).slice(0, 50));
  if (!found.length) {
    for (const { payload } of payloads) {
      const echoed = own(payload, 'adcp_version');
      if (typeof echoed === 'string' && parseVersion(echoed)) {
        found.push(echoed);
        source = 'echoed by seller';
        break;
      }
    }
  }
  const sorted = [...new Set(found.map((v) => v.slice(0, 40)))].sort((a, b) => compareAvailable(parseVersion(b)!, parseVersion(a)!));
  return Object.assign(sorted, { source });
}

function newestStable(available: readonly string[]): string | undefined {
  const parsed = available.map((v) => ({ v, p: parseVersion(v) })).filter((x): x is { v: string; p: ParsedVersion } => x.p !== undefined);
  const stable = parsed.filter((x) => !x.p.prerelease);
  const pool = stable.length ? stable : parsed;
  return pool.sort((a, b) => compareAvailable(b.p, a.p))[0]?.v;
}

/** The `adcp_version` the harness pins on every call after `get_adcp_capabilities`, and why. */
export interface AdcpPin {
  /** Release precision (`3.1`); undefined: requests carry no `adcp_version` (a 3.0-only seller). */
  release: string | undefined;
  /** `adcp_major_version` sent with it. */
  major?: number;
  reason: string;
}

const releaseOf = (p: ParsedVersion): string => `${p.major}.${p.minor}`;

/**
 * The pin (versioning.mdx, "Bidirectional negotiation": a 3.1 client sends `adcp_version` at release
 * precision with `adcp_major_version`): the config's `adcpVersion` when set; else the newest release in the
 * seller's `adcp.supported_versions` that `available` (the full versions of the schema trees the harness
 * has) covers; else none — a seller without `supported_versions` negotiates by major only (3.0), and its
 * requests stay as they were. `capabilities` is the success payload of `get_adcp_capabilities`, if any.
 */
export function chooseAdcpPin(capabilities: unknown, available: readonly string[], configured?: string): AdcpPin {
  const wanted = configured !== undefined ? parseVersion(configured) : undefined;
  // A patch in the config ("3.0.6") pins its release: patches are not negotiated (versioning.mdx).
  if (wanted && wanted.minor >= 0 && !wanted.prerelease)
    return { release: releaseOf(wanted), major: wanted.major, reason: `config: adcpVersion ${JSON.stringify(configured)}` };
  const adcp = isObject(capabilities) ? own(capabilities, 'adcp') : undefined;
  const supported = isObject(adcp) ? own(adcp, 'supported_versions') : undefined;
  if (!Array.isArray(supported) || supported.length === 0)
    return {
      release: undefined,
      reason:
        capabilities === undefined
          ? 'no get_adcp_capabilities answer: requests carry no adcp_version'
          : 'the seller lists no adcp.supported_versions (AdCP 3.0 negotiates by major): requests carry no adcp_version',
    };
  const listed = supported
    .slice(0, 50)
    .map((v) => ({ v, p: parseVersion(v) }))
    .filter((x): x is { v: string; p: ParsedVersion } => x.p !== undefined && x.p.minor >= 0 && !x.p.prerelease);
  const covered = listed.filter((x) => matchVersion(releaseOf(x.p), available) !== undefined).sort((a, b) => compareAvailable(b.p, a.p));
  const best = covered[0];
  const shown = JSON.stringify(listed.slice(0, 6).map((x) => x.v.slice(0, 20)));
  if (!best)
    return {
      release: undefined,
      reason: `none of the seller's supported_versions ${shown} has a schema tree in the harness: requests carry no adcp_version`,
    };
  return {
    release: releaseOf(best.p),
    major: best.p.major,
    reason: `capabilities: the newest of supported_versions ${shown} the harness has schemas for`,
  };
}
