import { defineFault } from './_fault.ts';
import { onTarget } from './_kit.ts';
import { cloneJson, isPlainObject, type JsonObject } from '../reference/json.ts';

export default defineFault({
  name: 'context-altered',
  description: 'get_products success echoes the context with a different correlation_id',
  // A call sent without context gets one back (the altered copy of nothing): made up.
  trips: { 'envelope.context-echo': 'fail', 'envelope.context-not-fabricated': 'fail' },
  behaviour: {
    payload: onTarget((p) => {
      const sent = p['context'];
      const altered: JsonObject = isPlainObject(sent) ? cloneJson(sent) : {};
      altered['correlation_id'] = `altered-by-seller-${String(altered['correlation_id'] ?? '')}`;
      p['context'] = altered;
    }),
  },
});
