import { defineFault } from './_fault.ts';
import { SUCCESS_TARGET, textItem } from './_kit.ts';

export default defineFault({
  name: 'payload-nested',
  description: 'get_products structuredContent is {payload:{…the flat payload…}} (status, context and products one level down)',
  // The echo is nested with the rest, where a client reading the root does not find it.
  trips: {
    'envelope.flat': 'fail',
    'envelope.status': 'warn',
    'envelope.context-echo': 'fail',
    'schema.adcp-response': 'fail',
    'version.echo': 'warn',
  },
  tripsByAdcpVersion: { '3.1': { 'envelope.status': 'fail' } },
  behaviour: {
    result: ({ tool, payload }) => {
      if (tool !== SUCCESS_TARGET) return undefined;
      const nested = { payload };
      return { content: [textItem(JSON.stringify(nested))], structuredContent: nested };
    },
  },
});
