// A seller that buffers its creative library: a creative sync_creatives accepted is not in list_creatives yet.
import { isPlainObject } from '../reference/json.ts';
import { defineFault } from './_fault.ts';

/** Creatives synced for real (not dry runs) in this process. */
const synced = new Set<string>();

export default defineFault({
  name: 'creative-list-misses-synced',
  description:
    'list_creatives leaves out every creative sync_creatives accepted (not a dry run): the sync is acknowledged before the library has it',
  trips: { 'creative.read-after-write': 'fail' },
  agent: { sandbox: true },
  behaviour: {
    request: (tool, args) => {
      if (tool !== 'sync_creatives' || args['dry_run'] === true || !Array.isArray(args['creatives'])) return;
      for (const c of args['creatives']) if (isPlainObject(c) && typeof c['creative_id'] === 'string') synced.add(c['creative_id']);
    },
    payload: (tool, p) => {
      if (tool !== 'list_creatives' || !Array.isArray(p['creatives'])) return;
      p['creatives'] = p['creatives'].filter((c) => !isPlainObject(c) || !synced.has(String(c['creative_id'])));
    },
  },
});
