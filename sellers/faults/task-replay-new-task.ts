// A seller whose replay of an async booking starts another task: the retried request answers submitted
// with a new task_id instead of the original answer (the buyer now follows two tasks for one buy).
import { randomUUID } from 'node:crypto';
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'task-replay-new-task',
  description: 'a replayed async create_media_buy answers submitted with a new task_id instead of the original one',
  // The new task_id names a task that never runs: none of its status changes is ever delivered either.
  trips: { 'task.replay': 'fail', 'webhook.delivery': 'fail' },
  agent: { sandbox: true },
  behaviour: {
    payload: (tool, p) => {
      if (tool === 'create_media_buy' && p['status'] === 'submitted' && p['replayed'] === true) p['task_id'] = `task_${randomUUID()}`;
    },
  },
});
