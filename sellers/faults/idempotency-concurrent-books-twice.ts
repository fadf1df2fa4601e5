// A seller with no in-flight guard on its idempotency cache: a request arriving while the first one
// under its key still waits on the (slow) ad server misses the cache and books again.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'idempotency-concurrent-books-twice',
  description: 'create_media_buy does not mark its key in flight: an identical request arriving during the booking books a second buy',
  trips: { 'idempotency.concurrent': 'fail' },
  behaviour: { idempotency: { noInFlightGuard: true } },
});
