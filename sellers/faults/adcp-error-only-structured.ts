import { defineFault } from './_fault.ts';
import { adcpErrorOnly, SUCCESS_TARGET, textItem } from './_kit.ts';

export default defineFault({
  name: 'adcp-error-only-structured',
  description: 'get_products success (no isError) whose structuredContent and text are {adcp_error:{…}} alone',
  // version.echo: an adcp_error-only success carries no adcp_version a client can read.
  trips: { 'envelope.adcp-error-only-success': 'fail', 'envelope.extractable': 'fail', 'version.echo': 'warn' },
  behaviour: {
    result: ({ tool }) => {
      if (tool !== SUCCESS_TARGET) return undefined;
      const only = adcpErrorOnly();
      return { content: [textItem(JSON.stringify(only))], structuredContent: only };
    },
  },
});
