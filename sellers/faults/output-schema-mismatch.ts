import { defineFault } from './_fault.ts';
import { findTool, payloadSchemaOf, SUCCESS_TARGET } from './_kit.ts';
import { isPlainObject, type JsonObject } from '../reference/json.ts';

export default defineFault({
  name: 'output-schema-mismatch',
  description: "get_products outputSchema requires 'total_count', which its structuredContent never carries",
  trips: { 'schema.output-conformance': 'fail' },
  behaviour: {
    tools: (tools) => {
      const tool = findTool(tools, SUCCESS_TARGET);
      const schema = tool ? payloadSchemaOf(tool) : undefined;
      if (!schema) return;
      const props: JsonObject = isPlainObject(schema['properties']) ? schema['properties'] : {};
      props['total_count'] = { type: 'integer' };
      schema['properties'] = props;
      schema['required'] = ['total_count'];
    },
  },
});
