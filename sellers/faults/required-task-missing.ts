import { defineFault } from './_fault.ts';

// A seller that declares the creative protocol but does not list list_creative_formats, its Required task.
export default defineFault({
  name: 'required-task-missing',
  description: "declares 'creative' in supported_protocols but does not list list_creative_formats (Required for a creative agent)",
  trips: {},
  tripsByAdcpVersion: { '3.1': { 'capabilities.required-tasks': 'fail' } },
  behaviour: {
    tools: (tools) => {
      const i = tools.findIndex((t) => t['name'] === 'list_creative_formats');
      if (i >= 0) tools.splice(i, 1);
    },
  },
});
