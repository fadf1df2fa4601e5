import { defineFault } from './_fault.ts';
import { onTarget } from './_kit.ts';
import type { JsonObject } from '../reference/json.ts';

export default defineFault({
  name: 'proto-keys',
  description: "get_products payload carries ext: {'__proto__': {…}} (a literal own key)",
  trips: { 'envelope.reserved-keys': 'warn' },
  behaviour: {
    payload: onTarget((p) => {
      // JSON.parse makes `__proto__` an own, enumerable key (an object literal would set the prototype).
      p['ext'] = JSON.parse('{"__proto__":{"polluted":true},"note":"reserved key above"}') as JsonObject;
    }),
  },
});
