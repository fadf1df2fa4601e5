// A seller that stores a refusal under its idempotency_key: the corrected request under that key gets
// IDEMPOTENCY_CONFLICT (another body) or the old refusal again (the same body), never a booking.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'idempotency-error-cached',
  description: 'a refused create_media_buy stores its key: the corrected request under it is refused (IDEMPOTENCY_CONFLICT)',
  trips: { 'idempotency.error-not-cached': 'fail' },
  behaviour: { idempotency: { cacheErrors: true } },
});
