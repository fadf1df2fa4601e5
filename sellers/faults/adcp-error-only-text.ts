import { defineFault } from './_fault.ts';
import { adcpErrorOnly, SUCCESS_TARGET, textItem } from './_kit.ts';

export default defineFault({
  name: 'adcp-error-only-text',
  description: 'get_products success (no isError) without structuredContent whose only text is {"adcp_error":{…}}',
  // version.echo: an adcp_error-only success carries no adcp_version a client can read.
  trips: {
    'envelope.adcp-error-only-success': 'fail',
    'envelope.extractable': 'fail',
    'envelope.structured-content': 'fail',
    'version.echo': 'warn',
  },
  behaviour: {
    result: ({ tool }) => (tool === SUCCESS_TARGET ? { content: [textItem(JSON.stringify(adcpErrorOnly()))] } : undefined),
  },
});
