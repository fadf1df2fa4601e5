// A seller that takes any idempotency_key: a key shorter than the schemas allow is padded and the
// request served, so a malformed request books.
import { IDEMPOTENCY_KEY_FORMAT } from '../reference/idempotency-key.ts';
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'idempotency-key-format-ignored',
  description: 'create_media_buy with a malformed idempotency_key (shorter than 16 characters) is booked, not refused with INVALID_REQUEST',
  trips: { 'idempotency.malformed-key': 'fail' },
  behaviour: {
    request: (tool, args) => {
      const key = args['idempotency_key'];
      if (tool === 'create_media_buy' && typeof key === 'string' && !IDEMPOTENCY_KEY_FORMAT.test(key))
        args['idempotency_key'] = `${key.replace(/[^A-Za-z0-9_.:-]/g, '_')}-padded-to-format`;
    },
  },
});
