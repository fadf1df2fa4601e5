import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'test-controller-exposed',
  description: 'tools/list exposes comply_test_controller on an agent marked production',
  trips: { 'capabilities.test-controller': 'fail' },
  agent: { production: true },
  behaviour: {
    tools: (tools) => {
      tools.push({
        name: 'comply_test_controller',
        description: 'AdCP compliance test controller (must never be exposed in production).',
        inputSchema: { type: 'object', properties: { scenario: { type: 'string' } } },
      });
    },
  },
});
