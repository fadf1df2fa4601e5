// A seller that ignores the version a request pins: `adcp_major_version: 99` is served like any call.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'version-unsupported-accepted',
  description:
    'a request pinning adcp_major_version 99 (or an adcp_version of another major) is served instead of refused with VERSION_UNSUPPORTED',
  trips: { 'error.version-unsupported': 'fail' },
  behaviour: {
    request: (_tool, args) => {
      delete args['adcp_major_version'];
      delete args['adcp_version'];
    },
  },
});
