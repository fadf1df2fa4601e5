import { defineFault } from './_fault.ts';

// Only the invalid-input probe's error (field buying_mode) is renamed: the business rules that expect a
// standard code (VERSION_UNSUPPORTED, PRODUCT_NOT_FOUND, IDEMPOTENCY_CONFLICT…) keep theirs.
export default defineFault({
  name: 'error-vendor-code-malformed',
  description: "the validation error of buying_mode carries the seller-specific code 'BUYING_MODE_UNKNOWN' without the X_{VENDOR}_ prefix",
  trips: {},
  tripsByAdcpVersion: { '3.1': { 'error.vendor-code': 'fail' } },
  behaviour: {
    error: (e) => {
      if (e.code === 'VALIDATION_ERROR' && e.field === 'buying_mode') e.code = 'BUYING_MODE_UNKNOWN';
    },
  },
});
