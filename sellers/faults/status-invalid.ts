import { defineFault } from './_fault.ts';
import { onTarget } from './_kit.ts';

export default defineFault({
  name: 'status-invalid',
  description: "get_products payload has status 'done' (not a task status)",
  trips: { 'envelope.status': 'warn' },
  tripsByAdcpVersion: { '3.1': { 'envelope.status': 'fail', 'schema.adcp-response': 'fail' } },
  behaviour: {
    payload: onTarget((p) => {
      p['status'] = 'done';
    }),
  },
});
