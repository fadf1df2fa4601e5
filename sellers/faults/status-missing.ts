import { defineFault } from './_fault.ts';
import { onTarget } from './_kit.ts';

export default defineFault({
  name: 'status-missing',
  description: 'get_products payload has no status',
  trips: { 'envelope.status': 'warn' },
  tripsByAdcpVersion: { '3.1': { 'envelope.status': 'fail', 'schema.adcp-response': 'fail' } },
  behaviour: {
    payload: onTarget((p) => {
      delete p['status'];
    }),
  },
});
