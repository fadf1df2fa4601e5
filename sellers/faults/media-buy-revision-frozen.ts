// A seller without optimistic concurrency: the revision it states never moves, and it ignores the one it is sent.
import { isPlainObject } from '../reference/json.ts';
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'media-buy-revision-frozen',
  description:
    'every media buy stays at revision 1 through its updates, and update_media_buy ignores a stale `revision` instead of answering CONFLICT',
  trips: { 'media-buy.revision': 'fail' },
  agent: { sandbox: true },
  behaviour: {
    request: (tool, args) => {
      if (tool === 'update_media_buy') delete args['revision'];
    },
    payload: (tool, p) => {
      if ((tool === 'create_media_buy' || tool === 'update_media_buy') && p['revision'] !== undefined) p['revision'] = 1;
      if (tool === 'get_media_buys' && Array.isArray(p['media_buys']))
        for (const b of p['media_buys']) if (isPlainObject(b) && b['revision'] !== undefined) b['revision'] = 1;
    },
  },
});
