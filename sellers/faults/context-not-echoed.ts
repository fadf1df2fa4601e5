import { defineFault } from './_fault.ts';
import { onTarget } from './_kit.ts';

export default defineFault({
  name: 'context-not-echoed',
  description: 'get_products success drops the context the caller sent',
  trips: { 'envelope.context-echo': 'fail' },
  behaviour: {
    payload: onTarget((p) => {
      delete p['context'];
    }),
  },
});
