import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'error-5kb',
  description: 'adcp_error carries details padded to ~5 KB (serialized error > 4096 bytes)',
  trips: { 'error.size': 'fail' },
  behaviour: {
    error: (e) => {
      e.details = { ...e.details, reference_seller_padding: 'x'.repeat(5000) };
    },
  },
});
