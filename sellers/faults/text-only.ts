import { defineFault } from './_fault.ts';
import { SUCCESS_TARGET, textItem } from './_kit.ts';

export default defineFault({
  name: 'text-only',
  description: 'get_products answers without structuredContent, only the JSON text item (MUST from MCP 2025-06-18)',
  trips: { 'envelope.structured-content': 'fail' },
  behaviour: {
    result: ({ tool, payload }) => (tool === SUCCESS_TARGET ? { content: [textItem(JSON.stringify(payload))] } : undefined),
  },
});
