// A seller that resolves a release pin it has no exact match for to its OLDEST release of the major
// instead of the highest one ≤ the pin: `"3.99"` is answered as served at "3.0", not "3.1". Exact pins and
// refusals are unchanged. (The payload keeps the shape of the release really negotiated, so only the
// release said to be served is wrong: the schema checks see nothing else.)
import { defineFault } from './_fault.ts';
import { parseRelease, SUPPORTED_VERSIONS } from '../reference/version.ts';

/** Set by the request hook, read by the payload hook of the same call (both run synchronously, in order). */
let wrongRelease: string | undefined;

export default defineFault({
  name: 'version-downshift-wrong',
  description: 'a release pin without an exact match is served at the oldest release of its major, not the highest ≤ the pin',
  trips: { 'version.release-negotiation': 'fail' },
  behaviour: {
    request: (_tool, args) => {
      wrongRelease = undefined;
      const pin = args['adcp_version'];
      const p = parseRelease(pin);
      if (!p || p.pre !== undefined || (SUPPORTED_VERSIONS as readonly string[]).includes(pin as string)) return;
      wrongRelease = SUPPORTED_VERSIONS.find((r) => parseRelease(r)?.major === p.major);
    },
    payload: (_tool, p) => {
      if (wrongRelease !== undefined && p['adcp_version'] !== undefined) p['adcp_version'] = wrongRelease;
      wrongRelease = undefined;
    },
  },
});
