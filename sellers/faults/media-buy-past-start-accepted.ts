// A seller that books a flight starting in the past, quietly moving its start to tomorrow (AdCP 3.0 allows
// it; 3.1 requires INVALID_REQUEST).
import { defineFault } from './_fault.ts';

const DAY_MS = 24 * 3600 * 1000;

export default defineFault({
  name: 'media-buy-past-start-accepted',
  description:
    'create_media_buy with a concrete start_time in the past is booked (its start moved to tomorrow) instead of refused with INVALID_REQUEST',
  trips: {},
  tripsByAdcpVersion: { '3.1': { 'media-buy.flight-dates': 'fail' } },
  agent: { sandbox: true },
  behaviour: {
    request: (tool, args) => {
      if (tool !== 'create_media_buy' || typeof args['start_time'] !== 'string' || args['start_time'] === 'asap') return;
      const start = Date.parse(args['start_time']);
      const end = Date.parse(String(args['end_time']));
      const tomorrow = Date.now() + DAY_MS;
      if (Number.isFinite(start) && start < Date.now() && Number.isFinite(end) && end > tomorrow)
        args['start_time'] = new Date(tomorrow).toISOString();
    },
  },
});
