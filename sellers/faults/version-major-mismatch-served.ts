// A seller that reads `adcp_version` and ignores an `adcp_major_version` naming the next major: the pair
// ("3.1", 4) is served at 3.1 instead of refused as malformed. (It still refuses adcp_major_version 99,
// which error.version-unsupported sends, and a pin of another major.)
import { defineFault } from './_fault.ts';
import { parseRelease, SUPPORTED_MAJORS } from '../reference/version.ts';

export default defineFault({
  name: 'version-major-mismatch-served',
  description: 'adcp_version of a supported release with adcp_major_version of the next major is served, not refused as malformed',
  trips: { 'version.major-mismatch': 'fail' },
  behaviour: {
    request: (_tool, args) => {
      const p = parseRelease(args['adcp_version']);
      const next = Math.max(...SUPPORTED_MAJORS) + 1;
      if (p && SUPPORTED_MAJORS.includes(p.major) && args['adcp_major_version'] === next) delete args['adcp_major_version'];
    },
  },
});
