// Version negotiation, exactly as AdCP 3.1 reference/versioning.mdx "Bidirectional negotiation" says
// (https://adcontextprotocol.org/docs/reference/versioning). A request may pin the release its payload
// follows (`adcp_version`, release precision "3.1", or "3.1-beta" style pre-releases) and/or the deprecated
// `adcp_major_version` integer. This seller speaks the releases 3.0 and 3.1 (major 3):
// - an exact pin is served as pinned;
// - a pre-release pin is matched exactly, never range-resolved (none is listed here: VERSION_UNSUPPORTED);
// - a release pin with no exact match is served at the highest supported release ≤ the pin within its
//   major (never a pre-release); none ≤ the pin (sub-min), or another major → VERSION_UNSUPPORTED;
// - `adcp_version` and `adcp_major_version` disagreeing on the major → VERSION_UNSUPPORTED (malformed);
// - only `adcp_major_version` → the highest supported release of that major; nothing → the default (3.1).
// VERSION_UNSUPPORTED is correctable and carries error-details/version-unsupported.json in `details`.
// Values of the wrong type or shape are the input schema's to refuse (validate-input.ts).
import { AdcpFailure } from './adcp-error.ts';
import type { JsonObject } from './json.ts';

export const SUPPORTED_MAJORS = [3];
export const SUPPORTED_VERSIONS = ['3.0', '3.1'] as const;
export type ServedRelease = (typeof SUPPORTED_VERSIONS)[number];
/** Served when the request pins nothing. */
export const DEFAULT_RELEASE: ServedRelease = '3.1';

/** The wire shape of `adcp_version` (core/version-envelope.json). */
const RELEASE = /^(\d{1,4})\.(\d{1,4})(?:-([a-zA-Z0-9.-]+))?$/;

interface ParsedRelease {
  major: number;
  minor: number;
  pre?: string;
}

export function parseRelease(value: unknown): ParsedRelease | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const m = RELEASE.exec(value);
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), ...(m[3] !== undefined ? { pre: m[3] } : {}) };
}

function unsupported(args: JsonObject, why: string, field: string): AdcpFailure {
  const pin = args['adcp_version'];
  const major = args['adcp_major_version'];
  return new AdcpFailure({
    code: 'VERSION_UNSUPPORTED',
    message: `AdCP version not supported (${why}): this seller speaks ${SUPPORTED_VERSIONS.join(' and ')}`,
    recovery: 'correctable',
    field,
    suggestion: `Retry with adcp_version "${DEFAULT_RELEASE}" (or adcp_major_version ${SUPPORTED_MAJORS.at(-1)}), or call get_adcp_capabilities without a version.`,
    details: {
      ...(typeof pin === 'string' && parseRelease(pin) ? { adcp_version: pin } : {}),
      ...(typeof major === 'number' && Number.isInteger(major) ? { adcp_major_version: major } : {}),
      supported_versions: [...SUPPORTED_VERSIONS],
      supported_majors: [...SUPPORTED_MAJORS],
    },
  });
}

/** The highest supported (non-pre-release) release of `major` with minor ≤ `maxMinor`, if any. */
function highestAtMost(major: number, maxMinor: number): ServedRelease | undefined {
  let best: { r: ServedRelease; minor: number } | undefined;
  for (const r of SUPPORTED_VERSIONS) {
    const p = parseRelease(r);
    if (!p || p.pre !== undefined || p.major !== major || p.minor > maxMinor) continue;
    if (!best || p.minor > best.minor) best = { r, minor: p.minor };
  }
  return best?.r;
}

/**
 * The release this call is served at, or a thrown VERSION_UNSUPPORTED (AdcpFailure) when the pin cannot
 * be honoured.
 */
export function negotiateRelease(args: JsonObject): ServedRelease {
  const rawMajor = args['adcp_major_version'];
  const major = typeof rawMajor === 'number' && Number.isInteger(rawMajor) ? rawMajor : undefined;
  const pin = parseRelease(args['adcp_version']);
  if (pin) {
    const asked = args['adcp_version'] as string;
    if (major !== undefined && major !== pin.major)
      throw unsupported(args, `adcp_version "${asked}" and adcp_major_version ${major} disagree on the major`, 'adcp_major_version');
    const exact = SUPPORTED_VERSIONS.find((r) => r === asked);
    if (exact) return exact;
    if (pin.pre !== undefined) throw unsupported(args, `pre-release "${asked}" is not one this seller lists`, 'adcp_version');
    if (!SUPPORTED_MAJORS.includes(pin.major)) throw unsupported(args, `major ${pin.major} of "${asked}"`, 'adcp_version');
    const served = highestAtMost(pin.major, pin.minor);
    if (!served) throw unsupported(args, `no supported release at or below "${asked}"`, 'adcp_version');
    return served;
  }
  if (major !== undefined) {
    if (!SUPPORTED_MAJORS.includes(major)) throw unsupported(args, `major ${major}`, 'adcp_major_version');
    return highestAtMost(major, Number.MAX_SAFE_INTEGER) ?? DEFAULT_RELEASE;
  }
  return DEFAULT_RELEASE;
}

/** Throws VERSION_UNSUPPORTED for a pin this seller cannot honour (kept for callers that only gate). */
export function checkVersion(args: JsonObject): void {
  negotiateRelease(args);
}
