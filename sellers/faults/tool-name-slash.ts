import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'tool-name-slash',
  description: "tools/list adds a tool named 'get/products' (outside MCP's tool-name alphabet; AdCP's own tasks/get is excepted)",
  trips: { 'transport.tool-names': 'warn' },
  behaviour: {
    tools: (tools) => {
      tools.push({
        name: 'get/products',
        description: 'Product discovery, exposed under a name with a slash.',
        inputSchema: { type: 'object', properties: { brief: { type: 'string' } } },
      });
    },
  },
});
