// A seller that ignores the version a request pins: `adcp_major_version: 99` is served like any call.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'version-unsupported-accepted',
  description:
    'a request pinning adcp_major_version 99 (beside no adcp_version, or one of major 3) is served instead of refused with VERSION_UNSUPPORTED',
  trips: { 'error.version-unsupported': 'fail' },
  behaviour: {
    // Only the pin error.version-unsupported sends (adcp_major_version 99, beside no adcp_version or one
    // of major 3): the release pins of version.release-negotiation / version.major-mismatch stay honoured.
    request: (_tool, args) => {
      if (args['adcp_major_version'] !== 99) return;
      const release = args['adcp_version'];
      if (release !== undefined && !(typeof release === 'string' && release.startsWith('3.'))) return;
      delete args['adcp_major_version'];
      delete args['adcp_version'];
    },
  },
});
