// A seller that answers an async booking `submitted` without the task_id a buyer needs to follow it.
// AdCP 3.0's submitted schema leaves task_id optional; 3.1's requires it, so schema.adcp-response trips there too.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'task-submitted-no-task-id',
  description: 'create_media_buy of a guaranteed product answers submitted without a task_id',
  trips: { 'task.submitted': 'fail' },
  tripsByAdcpVersion: { '3.1': { 'schema.adcp-response': 'fail' } },
  agent: { sandbox: true },
  behaviour: {
    payload: (tool, p) => {
      if (tool === 'create_media_buy' && p['status'] === 'submitted') delete p['task_id'];
    },
  },
});
