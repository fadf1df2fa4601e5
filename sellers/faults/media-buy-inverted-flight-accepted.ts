// A seller that books a flight ending before it starts (it swaps the dates instead of refusing).
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'media-buy-inverted-flight-accepted',
  description:
    'create_media_buy whose end_time precedes its start_time is booked (the dates swapped) instead of refused with an AdCP error',
  trips: { 'media-buy.flight-dates': 'fail' },
  agent: { sandbox: true },
  behaviour: {
    request: (tool, args) => {
      if (tool !== 'create_media_buy' || typeof args['start_time'] !== 'string' || typeof args['end_time'] !== 'string') return;
      const start = Date.parse(args['start_time']);
      const end = Date.parse(args['end_time']);
      if (Number.isFinite(start) && Number.isFinite(end) && end < start)
        [args['start_time'], args['end_time']] = [args['end_time'], args['start_time']];
    },
  },
});
