// At AdCP 3.0 `adcp.major_versions` is how a seller declares its versions, so the same answer is
// conformant there: judged at 3.0 this fault must trip nothing, at 3.1 it must fail.
import { defineFault } from './_fault.ts';
import { isPlainObject } from '../reference/json.ts';

export default defineFault({
  name: 'capabilities-no-supported-versions',
  description: 'get_adcp_capabilities omits adcp.supported_versions (major_versions stays)',
  // get_adcp_capabilities is called unpinned, and the seller serves it at 3.1 (its echo says so), where
  // supported_versions is required, whatever release the rest is judged at.
  trips: { 'capabilities.versions': 'fail' },
  behaviour: {
    payload: (tool, p) => {
      if (tool === 'get_adcp_capabilities' && isPlainObject(p['adcp'])) delete p['adcp']['supported_versions'];
    },
  },
});
