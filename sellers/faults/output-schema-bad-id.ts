import { defineFault } from './_fault.ts';
import { CALL_TARGET, findTool } from './_kit.ts';
import { isPlainObject } from '../reference/json.ts';

export default defineFault({
  name: 'output-schema-bad-id',
  description: "get_signals outputSchema declares $id 'my_tool:output' (Ajv/fast-uri reject it)",
  trips: { 'schema.output-schema': 'fail' },
  behaviour: {
    tools: (tools) => {
      const tool = findTool(tools, CALL_TARGET);
      if (tool && isPlainObject(tool['outputSchema'])) tool['outputSchema']['$id'] = 'my_tool:output';
    },
  },
});
