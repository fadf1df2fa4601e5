// AdCP release-precision version negotiation (3.1 reference/versioning.mdx, "Bidirectional negotiation"),
// as pure readers both sides share: the scenarios pick the pins to send from what the seller declares, and
// the checks work out what the seller had to answer to each pin. Every reader works on raw seller JSON
// (own properties only, bounded, never throws).
import type { Exchange } from '../record/exchange.ts';
import { isObject, own } from '../json.ts';
import { locateSuccess } from '../extract/success.ts';
import { probeSuccess, successPayload } from './scenario-facts.ts';

/** A release-precision version: `M.m` or `M.m-PRE` (core/version-envelope.json pattern). */
export interface Release {
  major: number;
  minor: number;
  pre?: string;
}

const RELEASE = /^(\d{1,4})\.(\d{1,4})(?:-([a-zA-Z0-9.-]{1,40}))?$/;
/** supported_versions entries read at most (a seller's list is a handful). */
const MAX_DECLARED = 50;

/** The release a wire value names, or null when it is not one (a patch, `v3.1`, `3`, a number …). */
export function parseRelease(value: unknown): Release | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const m = RELEASE.exec(value);
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), ...(m[3] !== undefined ? { pre: m[3] } : {}) };
}

/**
 * What the seller declares in `adcp.supported_versions` of its get_adcp_capabilities answer (the first
 * plain probe that succeeded): the well-formed release strings, or why there are none to read.
 */
export type Declared =
  | { kind: 'declared'; releases: string[] }
  /** The answer has no usable supported_versions (a 3.0 seller declares major_versions only). */
  | { kind: 'none'; found: string }
  /** No get_adcp_capabilities answer to read. */
  | { kind: 'unknown'; why: string };

export function declaredReleases(exchanges: readonly Exchange[]): Declared {
  const x = probeSuccess(exchanges, 'get_adcp_capabilities');
  if (!x) {
    const called = exchanges.some((e) => e.tool === 'get_adcp_capabilities');
    return {
      kind: 'unknown',
      why: called
        ? 'get_adcp_capabilities did not answer with a success, so the releases the seller declares are unknown: see its own outcomes'
        : 'get_adcp_capabilities was not called (the agent does not list it), so the seller declares no release',
    };
  }
  const adcp = own(successPayload(x), 'adcp');
  const list = own(adcp, 'supported_versions');
  if (!Array.isArray(list))
    return { kind: 'none', found: list === undefined ? 'no adcp.supported_versions' : 'a malformed adcp.supported_versions' };
  const releases = list.slice(0, MAX_DECLARED).filter((v): v is string => parseRelease(v) !== null);
  if (releases.length === 0) return { kind: 'none', found: 'adcp.supported_versions with no well-formed release' };
  return { kind: 'declared', releases: [...new Set(releases)] };
}

/** Whether a release is 3.1 or later (a 3.1 pre-release counts: it speaks the 3.1 wire). */
export function atLeast31(r: Release): boolean {
  return r.major > 3 || (r.major === 3 && r.minor >= 1);
}

/** The declared releases that are 3.1 or later. */
export function releases31(declared: readonly string[]): string[] {
  return declared.filter((v) => {
    const r = parseRelease(v);
    return r !== null && atLeast31(r);
  });
}

/** What a conformant seller that lists `supported` must do with a request pinned to `pin`. */
export type Resolution = { serve: string; why: string } | { unsupported: string };

/**
 * The server resolution of versioning.mdx for a release pin: exact match → that release; a pre-release
 * pin is matched exactly only; same major, no exact match → the highest supported release ≤ the pin,
 * never a pre-release; none ≤ the pin, or another major → VERSION_UNSUPPORTED. `majorPin` (the
 * deprecated `adcp_major_version` sent beside it) disagreeing on the major → VERSION_UNSUPPORTED.
 */
export function resolvePin(supported: readonly string[], pin: string, majorPin?: number): Resolution {
  const p = parseRelease(pin);
  if (!p) return { unsupported: `"${pin.slice(0, 40)}" is not a release-precision version` };
  if (majorPin !== undefined && majorPin !== p.major)
    return { unsupported: `adcp_version "${pin}" and adcp_major_version ${majorPin} disagree on the major` };
  if (supported.includes(pin)) return { serve: pin, why: 'an exact match is served as pinned' };
  if (p.pre !== undefined) return { unsupported: `the pre-release "${pin}" is not listed (pre-releases are matched exactly)` };
  let best: { v: string; minor: number } | undefined;
  let sameMajor = false;
  for (const v of supported) {
    const r = parseRelease(v);
    if (!r || r.major !== p.major) continue;
    sameMajor = true;
    if (r.pre !== undefined || r.minor > p.minor) continue;
    if (!best || r.minor > best.minor) best = { v, minor: r.minor };
  }
  if (best) return { serve: best.v, why: `no exact match: the highest supported release ≤ "${pin}"` };
  return {
    unsupported: sameMajor ? `no supported release ≤ "${pin}"` : `major ${p.major} is not among the supported releases`,
  };
}

/** The `adcp_version` a request pinned, when it pinned a string. */
export function pinOf(x: Exchange): string | undefined {
  const v = own(x.request?.arguments, 'adcp_version');
  return typeof v === 'string' ? v : undefined;
}

/** The `adcp_major_version` a request pinned, when it pinned an integer. */
export function majorPinOf(x: Exchange): number | undefined {
  const v = own(x.request?.arguments, 'adcp_major_version');
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/**
 * Where an answer says which release it was served at: the success payload's `adcp_version` (as a
 * conformant client extracts the payload), or on an error result `adcp_version` beside `adcp_error` in
 * structuredContent (else in the text item's JSON). `value` is raw seller JSON.
 */
export function echoOf(x: Exchange): { value: unknown; pointer: string } | undefined {
  if (x.outcome?.kind !== 'result' || !isObject(x.outcome.result)) return undefined;
  const result = x.outcome.result;
  const isError = own(result, 'isError');
  if (isError === undefined || isError === false) {
    const located = locateSuccess(result);
    if (!located) return undefined;
    const v = own(located.data, 'adcp_version');
    return v === undefined ? undefined : { value: v, pointer: `/result${located.pointer}/adcp_version` };
  }
  const sc = own(result, 'structuredContent');
  if (isObject(sc) && own(sc, 'adcp_version') !== undefined)
    return { value: own(sc, 'adcp_version'), pointer: '/result/structuredContent/adcp_version' };
  const content = own(result, 'content');
  const first: unknown = Array.isArray(content) ? content[0] : undefined;
  const text = own(first, 'text');
  if (typeof text === 'string' && text.length <= 65_536) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isObject(parsed) && own(parsed, 'adcp_version') !== undefined)
        return { value: own(parsed, 'adcp_version'), pointer: '/result/content/0/text (adcp_version)' };
    } catch {
      // not JSON: no echo there
    }
  }
  return undefined;
}
