import { defineFault } from './_fault.ts';
import { onTarget } from './_kit.ts';

export default defineFault({
  name: 'legacy-task-status',
  description: "get_products payload carries task_status: 'completed' next to status",
  trips: { 'envelope.legacy-status-fields': 'fail' },
  tripsByAdcpVersion: { '3.1': { 'schema.adcp-response': 'fail' } },
  behaviour: {
    payload: onTarget((p) => {
      p['task_status'] = 'completed';
    }),
  },
});
