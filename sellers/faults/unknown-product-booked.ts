// A seller that books whatever product id it is sent: an id it never issued becomes its first product.
import { products } from '../reference/catalog.ts';
import { isPlainObject } from '../reference/json.ts';
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'unknown-product-booked',
  description: 'create_media_buy naming a product id the seller never issued books its first product instead of PRODUCT_NOT_FOUND',
  trips: { 'error.unknown-reference': 'fail' },
  behaviour: {
    request: (tool, args) => {
      if (tool !== 'create_media_buy' || !Array.isArray(args['packages'])) return;
      for (const p of args['packages']) {
        if (!isPlainObject(p) || products.some((c) => c.product_id === p['product_id'])) continue;
        p['product_id'] = products[0]!.product_id;
        p['pricing_option_id'] = products[0]!.pricing_options[0]!.pricing_option_id;
      }
    },
  },
});
