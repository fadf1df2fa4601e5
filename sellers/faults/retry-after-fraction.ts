import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'retry-after-fraction',
  description: 'adcp_error.retry_after is 2.5 (not an integer)',
  trips: { 'error.retry-after': 'fail' },
  behaviour: {
    error: (e) => {
      e.retry_after = 2.5;
    },
  },
});
