// A seller that replays the cached booking without saying so: the replay's `replayed: true` is dropped,
// so a buyer counts the cached answer as a new booking.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'idempotency-replay-unflagged',
  description: 'create_media_buy replays return the cached booking without `replayed: true`',
  trips: { 'idempotency.replayed-flag': 'fail' },
  behaviour: {
    payload: (tool, p) => {
      if (tool === 'create_media_buy' && p['replayed'] === true) delete p['replayed'];
    },
  },
});
