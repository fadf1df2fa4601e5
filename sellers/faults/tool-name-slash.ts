import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'tool-name-slash',
  description: "tools/list adds a tool named 'tasks/get' (outside MCP's tool-name alphabet)",
  trips: { 'transport.tool-names': 'warn' },
  behaviour: {
    tools: (tools) => {
      tools.push({
        name: 'tasks/get',
        description: 'Task status lookup, exposed under a name with a slash.',
        inputSchema: { type: 'object', properties: { task_id: { type: 'string' } } },
      });
    },
  },
});
