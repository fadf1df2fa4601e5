// A seller whose test controller accepts a forced submitted arm but answers the booking with a task_id of
// its own, not the one force_create_media_buy_arm registered (comply-test-controller.mdx: the seller MUST
// emit that task_id verbatim). The task it opens is real, so polling, completion, replay and webhooks all
// work under its own id: only the verbatim rule breaks.
import { randomUUID } from 'node:crypto';
import { defineFault } from './_fault.ts';
import { isPlainObject } from '../reference/json.ts';
import { TEST_CONTROLLER_TOOL } from '../reference/test-controller.ts';
import { listTestController } from './_controller.ts';

export default defineFault({
  name: 'test-controller-task-id-ignored',
  description: 'comply_test_controller forces the submitted arm, but the booking answers a task_id of its own',
  trips: { 'task.submitted': 'fail' },
  agent: { sandbox: true },
  behaviour: {
    tools: listTestController,
    request: (tool, args) => {
      const params = args['params'];
      if (tool !== TEST_CONTROLLER_TOOL || args['scenario'] !== 'force_create_media_buy_arm' || !isPlainObject(params)) return;
      if (params['arm'] === 'submitted' && typeof params['task_id'] === 'string') params['task_id'] = `task_seller_${randomUUID()}`;
    },
  },
});
