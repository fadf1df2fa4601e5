// A declaration of versions a client cannot read: `supported_versions` holds a word, not "M.m". Wrong at
// every AdCP version (the 3.1 schema's pattern rejects it too).
import { defineFault } from './_fault.ts';
import { isPlainObject } from '../reference/json.ts';

export default defineFault({
  name: 'capabilities-versions-malformed',
  description: 'get_adcp_capabilities declares adcp.supported_versions [\'three\'] (not an "M.m" release)',
  trips: { 'capabilities.versions': 'fail' },
  tripsByAdcpVersion: { '3.1': { 'schema.adcp-response': 'fail' } },
  behaviour: {
    payload: (tool, p) => {
      if (tool === 'get_adcp_capabilities' && isPlainObject(p['adcp'])) p['adcp']['supported_versions'] = ['three'];
    },
  },
});
