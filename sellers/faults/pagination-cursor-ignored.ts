// A seller that ignores the cursor it handed out: every page of get_products is the first page again.
import { isPlainObject } from '../reference/json.ts';
import { SUCCESS_TARGET } from './_kit.ts';
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'pagination-cursor-ignored',
  description: 'get_products ignores pagination.cursor: following it returns the first page again (has_more still true)',
  trips: { 'pagination.cursor': 'fail' },
  behaviour: {
    request: (tool, args) => {
      const p = args['pagination'];
      if (tool === SUCCESS_TARGET && isPlainObject(p)) delete p['cursor'];
    },
  },
});
