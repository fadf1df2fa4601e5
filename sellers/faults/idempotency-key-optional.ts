// A seller that makes up a key when the request has none: a mutating call without idempotency_key is served.
import { randomUUID } from 'node:crypto';
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'idempotency-key-optional',
  description: 'create_media_buy without idempotency_key is served (the seller invents a key) instead of refused',
  trips: { 'idempotency.missing-key': 'fail' },
  behaviour: {
    request: (tool, args) => {
      if (tool === 'create_media_buy' && args['idempotency_key'] === undefined) args['idempotency_key'] = randomUUID();
    },
  },
});
