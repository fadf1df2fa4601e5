// A seller that makes up a `context` when the request carried none (a server-side trace object).
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'context-fabricated',
  description: 'a success to a request without context carries a context the seller made up',
  trips: { 'envelope.context-not-fabricated': 'fail' },
  behaviour: {
    payload: (_tool, p) => {
      if (!Object.prototype.hasOwnProperty.call(p, 'context')) p['context'] = { trace_id: 'seller-generated-trace' };
    },
  },
});
