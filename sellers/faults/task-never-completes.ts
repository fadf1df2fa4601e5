// A seller whose async tasks never finish as the buyer sees them: every poll answers `working`, without a
// result (the hostile case: the harness's poll budget bounds it, and only task.polling pays).
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'task-never-completes',
  description: 'tasks/get and get_task_status answer working for ever: the task never reaches a terminal status',
  trips: { 'task.polling': 'fail' },
  agent: { sandbox: true },
  behaviour: {
    payload: (tool, p) => {
      if (tool !== 'tasks/get' && tool !== 'get_task_status') return;
      p['status'] = 'working';
      delete p['result'];
      delete p['completed_at'];
      delete p['error'];
    },
  },
});
