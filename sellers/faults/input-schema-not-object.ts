import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'input-schema-not-object',
  description: "tools/list adds a tool 'reference_echo' whose inputSchema is {type:'array'} (not an object schema)",
  trips: { 'transport.tools-list': 'fail' },
  behaviour: {
    tools: (tools) => {
      tools.push({
        name: 'reference_echo',
        description: 'Echoes its arguments (declared with a non-object input schema).',
        inputSchema: { type: 'array', items: { type: 'string' } },
      });
    },
  },
});
