// A seller still on the 3.0 shape at 3.1: its booking and update answers carry no media_buy_status.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'media-buy-status-legacy-only',
  description:
    'create_media_buy and update_media_buy answers leave out media_buy_status, at AdCP 3.1 too (conformant at 3.0, which has no such field)',
  trips: {},
  tripsByAdcpVersion: { '3.1': { 'media-buy.status-field': 'fail' } },
  agent: { sandbox: true },
  behaviour: {
    payload: (tool, p) => {
      if (tool === 'create_media_buy' || tool === 'update_media_buy') delete p['media_buy_status'];
    },
  },
});
