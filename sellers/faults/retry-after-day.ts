import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'retry-after-day',
  description: 'adcp_error.retry_after is 86400',
  trips: { 'error.retry-after': 'fail' },
  behaviour: {
    error: (e) => {
      e.retry_after = 86_400;
    },
  },
});
