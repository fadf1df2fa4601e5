// A seller whose reads lag its writes: get_media_buys never shows the newest buy (the one just booked).
import { isPlainObject } from '../reference/json.ts';
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'media-buy-read-misses-newest',
  description:
    'get_media_buys leaves out the newest media buy of its answer (by id and in the list): a buy just booked cannot be read back',
  trips: { 'media-buy.read-after-write': 'fail' },
  agent: { sandbox: true },
  behaviour: {
    payload: (tool, p) => {
      const buys = p['media_buys'];
      if (tool !== 'get_media_buys' || !Array.isArray(buys) || buys.length === 0) return;
      // The seller's ids count up (mb_0001, mb_0002 …): the greatest is the newest.
      const ids = buys.map((b) => (isPlainObject(b) ? String(b['media_buy_id']) : ''));
      const newest = ids.reduce((a, b) => (b > a ? b : a));
      p['media_buys'] = buys.filter((_, i) => ids[i] !== newest);
    },
  },
});
