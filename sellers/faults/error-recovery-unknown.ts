import { defineFault } from './_fault.ts';
import type { Recovery } from '../reference/adcp-error.ts';

export default defineFault({
  name: 'error-recovery-unknown',
  description: "adcp_error.recovery is 'retry-later' (not transient | correctable | terminal)",
  trips: { 'error.recovery': 'warn' },
  behaviour: {
    error: (e) => {
      e.recovery = 'retry-later' as Recovery;
    },
  },
});
