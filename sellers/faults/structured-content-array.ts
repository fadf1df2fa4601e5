import { defineFault } from './_fault.ts';
import { SUCCESS_TARGET, textItem } from './_kit.ts';

export default defineFault({
  name: 'structured-content-array',
  description: 'get_products structuredContent is [payload] (an array); the text item still mirrors the payload',
  trips: { 'envelope.structured-content-object': 'fail' },
  behaviour: {
    result: ({ tool, payload }) =>
      tool === SUCCESS_TARGET ? { content: [textItem(JSON.stringify(payload))], structuredContent: [payload] } : undefined,
  },
});
