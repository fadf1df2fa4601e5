import { defineFault } from './_fault.ts';
import { onTarget } from './_kit.ts';

export default defineFault({
  name: 'status-invalid',
  description: "get_products payload has status 'done' (not a task status)",
  // Judged at 3.0, the calls served at 3.0 only warn; the scenario steps the harness pins to 3.1 (the seller
  // declares it) are served at 3.1, where status is a MUST: the worst is a failure.
  trips: { 'envelope.status': 'fail' },
  tripsByAdcpVersion: { '3.1': { 'envelope.status': 'fail', 'schema.adcp-response': 'fail' } },
  behaviour: {
    payload: onTarget((p) => {
      p['status'] = 'done';
    }),
  },
});
