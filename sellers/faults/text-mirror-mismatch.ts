import { defineFault } from './_fault.ts';
import { SUCCESS_TARGET, textItem } from './_kit.ts';
import { JsonObject } from '../reference/json.ts';

export default defineFault({
  name: 'text-mirror-mismatch',
  description: 'get_products text item is JSON of a different payload (no products) than structuredContent',
  trips: { 'envelope.text-mirror': 'warn' },
  behaviour: {
    result: ({ tool, payload, result }) => {
      if (tool !== SUCCESS_TARGET) return undefined;
      const other: JsonObject = {};
      for (const [k, v] of Object.entries(payload)) if (k !== 'products') other[k] = v;
      other['products'] = [];
      return { ...result, content: [textItem(JSON.stringify(other))] };
    },
  },
});
