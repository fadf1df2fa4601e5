// A seller whose cancel is only a label: the buy is paused and shown as canceled, so it can still be
// updated, and a second cancel goes through.
import { isPlainObject } from '../reference/json.ts';
import { defineFault } from './_fault.ts';

/** Buys this seller says it canceled (they are paused underneath). */
const canceled = new Set<string>();

export default defineFault({
  name: 'media-buy-cancel-not-final',
  description:
    'update_media_buy canceled: true only pauses the buy (shown as canceled): a second cancel and a pause of the canceled buy succeed instead of NOT_CANCELLABLE / INVALID_STATE',
  trips: { 'media-buy.transitions': 'fail' },
  agent: { sandbox: true },
  behaviour: {
    request: (tool, args) => {
      const id = args['media_buy_id'];
      if (tool !== 'update_media_buy' || typeof id !== 'string' || args['canceled'] !== true) return;
      // The first cancel becomes a pause (its other fields dropped, as a cancel would); a later one a no-op update.
      delete args['canceled'];
      delete args['cancellation_reason'];
      delete args['packages'];
      if (canceled.has(id)) delete args['paused'];
      else args['paused'] = true;
      canceled.add(id);
    },
    payload: (tool, p) => {
      if (tool === 'update_media_buy' && canceled.has(String(p['media_buy_id'])) && p['media_buy_status'] !== undefined)
        p['media_buy_status'] = 'canceled';
      if (tool !== 'get_media_buys' || !Array.isArray(p['media_buys'])) return;
      for (const b of p['media_buys']) {
        if (!isPlainObject(b) || !canceled.has(String(b['media_buy_id']))) continue;
        for (const field of ['status', 'media_buy_status']) if (b[field] !== undefined) b[field] = 'canceled';
      }
    },
  },
});
