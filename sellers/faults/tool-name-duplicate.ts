import { defineFault } from './_fault.ts';
import { CALL_TARGET, findTool } from './_kit.ts';

export default defineFault({
  name: 'tool-name-duplicate',
  description: 'tools/list names get_signals twice (the second copy identical)',
  trips: { 'transport.tool-names': 'warn' },
  behaviour: {
    tools: (tools) => {
      const original = findTool(tools, CALL_TARGET);
      if (original) tools.push(structuredClone(original));
    },
  },
});
