// A seller that executes a replay again: the same key with the same body answers with a new media buy
// (a fresh execution, so not flagged `replayed`). The concurrent retry is such a replay too.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'idempotency-replay-rebooks',
  description:
    'create_media_buy replayed with the same idempotency_key and body answers with a new media_buy_id (a second booking), not the cached one',
  trips: { 'idempotency.replay': 'fail', 'idempotency.concurrent': 'fail' },
  behaviour: {
    payload: (tool, p) => {
      if (tool !== 'create_media_buy' || p['replayed'] !== true) return;
      p['media_buy_id'] = `${String(p['media_buy_id'])}_rebooked`;
      delete p['replayed'];
    },
  },
});
