import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'retry-after-zero',
  description: 'adcp_error.retry_after is 0',
  trips: { 'error.retry-after': 'fail' },
  behaviour: {
    error: (e) => {
      e.retry_after = 0;
    },
  },
});
