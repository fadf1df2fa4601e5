// A seller whose test controller says it registered a forced submitted arm, but never does: the next
// booking is answered at once (comply-test-controller.mdx: the next create_media_buy MUST answer the
// submitted arm with the forced task_id). A run that took the controller's word for it would judge no
// task at all; task.submitted fails it instead.
import { defineFault } from './_fault.ts';
import { isPlainObject } from '../reference/json.ts';
import { TEST_CONTROLLER_TOOL } from '../reference/test-controller.ts';
import { listTestController } from './_controller.ts';

export default defineFault({
  name: 'test-controller-arm-ignored',
  description:
    'comply_test_controller answers force_create_media_buy_arm with success but registers nothing: the booking is answered at once',
  trips: { 'task.submitted': 'fail' },
  agent: { sandbox: true },
  behaviour: {
    tools: listTestController,
    // The directive is misfiled on its way in: registered for another account, which the controller
    // accepts — and this account's next booking takes the seller's default arm.
    request: (tool, args) => {
      const params = args['params'];
      if (tool !== TEST_CONTROLLER_TOOL || args['scenario'] !== 'force_create_media_buy_arm' || !isPlainObject(params)) return;
      args['account'] = { account_id: 'acc_elsewhere_arm_ignored' };
    },
  },
});
