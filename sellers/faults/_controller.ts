// Shared by the test-controller faults: the controller is listed whatever the command line says (the
// matrix starts faults without --test-controller), as the reference seller lists it under the flag.
import { cloneJson, type JsonObject } from '../reference/json.ts';
import { TEST_CONTROLLER_TOOL, testControllerInputSchema } from '../reference/test-controller.ts';

export function listTestController(tools: JsonObject[]): void {
  if (tools.some((t) => t['name'] === TEST_CONTROLLER_TOOL)) return;
  tools.push({
    name: TEST_CONTROLLER_TOOL,
    description: 'Triggers seller-side state transitions for compliance testing. Sandbox only.',
    inputSchema: cloneJson(testControllerInputSchema),
    annotations: { readOnlyHint: false, idempotentHint: true },
  });
}
