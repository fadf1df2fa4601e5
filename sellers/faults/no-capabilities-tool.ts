import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'no-capabilities-tool',
  description: 'get_adcp_capabilities is not listed (and calling it fails)',
  trips: { 'capabilities.tool': 'warn' },
  behaviour: {
    tools: (tools) => {
      const i = tools.findIndex((t) => t['name'] === 'get_adcp_capabilities');
      if (i >= 0) tools.splice(i, 1);
    },
  },
});
