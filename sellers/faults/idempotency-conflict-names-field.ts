// A seller whose IDEMPOTENCY_CONFLICT says which field differs from the earlier request (an oracle for
// whoever holds a stolen key).
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'idempotency-conflict-names-field',
  description: 'IDEMPOTENCY_CONFLICT names the field that differs from the earlier request (field packages[0].budget, and in its message)',
  trips: { 'idempotency.conflict': 'fail' },
  behaviour: {
    error: (e) => {
      if (e.code !== 'IDEMPOTENCY_CONFLICT') return;
      e.field = 'packages[0].budget';
      e.message = 'idempotency_key was already used with a different packages[0].budget';
    },
  },
});
