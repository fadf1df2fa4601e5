import { defineFault } from './_fault.ts';
import { BARE_ERROR_TARGET, textItem } from './_kit.ts';

export default defineFault({
  name: 'error-bare-text',
  description: 'get_media_buy_delivery fails with isError:true and plain text only: no adcp_error, no structuredContent (so no context)',
  // The bare text carries neither the context nor the adcp_version echo.
  trips: { 'error.adcp-error': 'fail', 'envelope.context-echo': 'fail', 'version.echo': 'warn' },
  behaviour: {
    result: ({ tool }) =>
      tool === BARE_ERROR_TARGET
        ? { isError: true, content: [textItem('Delivery reporting is temporarily unavailable. Try again later.')] }
        : undefined,
  },
});
