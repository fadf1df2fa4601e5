// Version negotiation: a request may pin the AdCP version its payload follows (`adcp_version`, release
// precision "3.1"; or the deprecated `adcp_major_version` integer). The seller speaks major 3 (releases
// 3.0 and 3.1): a pin to another major is refused with VERSION_UNSUPPORTED (recovery correctable, the
// supported versions in `details`) before the task runs; a release within major 3 is served as 3.1.
import { AdcpFailure } from './adcp-error.ts';
import type { JsonObject } from './json.ts';

export const SUPPORTED_MAJORS = [3];
export const SUPPORTED_VERSIONS = ['3.0', '3.1'];

function unsupported(asked: string, field: string): AdcpFailure {
  return new AdcpFailure({
    code: 'VERSION_UNSUPPORTED',
    message: `AdCP version ${asked} is not supported: this seller speaks ${SUPPORTED_VERSIONS.join(' and ')}`,
    recovery: 'correctable',
    field,
    suggestion: `Retry with adcp_version "${SUPPORTED_VERSIONS.at(-1)}" (or adcp_major_version ${SUPPORTED_MAJORS.at(-1)}), or call get_adcp_capabilities without a version.`,
    details: { supported_versions: [...SUPPORTED_VERSIONS], supported_majors: [...SUPPORTED_MAJORS] },
  });
}

/** Throws VERSION_UNSUPPORTED for a pin outside major 3. Values of the wrong type are the input schema's to refuse. */
export function checkVersion(args: JsonObject): void {
  const major = args['adcp_major_version'];
  if (typeof major === 'number' && Number.isInteger(major) && !SUPPORTED_MAJORS.includes(major))
    throw unsupported(String(major), 'adcp_major_version');
  const release = args['adcp_version'];
  const m = typeof release === 'string' ? /^(\d{1,4})\.\d{1,4}(?:-[a-zA-Z0-9.-]+)?$/.exec(release) : null;
  if (m && !SUPPORTED_MAJORS.includes(Number(m[1]))) throw unsupported(release as string, 'adcp_version');
}
