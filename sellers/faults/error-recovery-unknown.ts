import { defineFault } from './_fault.ts';
import type { Recovery } from '../reference/adcp-error.ts';

export default defineFault({
  name: 'error-recovery-unknown',
  description: "the validation error's adcp_error.recovery is 'retry-later' (not transient | correctable | terminal)",
  trips: { 'error.recovery': 'warn' },
  // 3.1 text: "Senders MUST populate error.recovery on every error" (error-handling.mdx).
  tripsByAdcpVersion: { '3.1': { 'error.recovery': 'fail' } },
  behaviour: {
    // Only the invalid-input probe's error: the business rules that read `recovery` (credential-in-args,
    // version-unsupported…) keep theirs, so one defect trips one id.
    error: (e) => {
      if (e.code === 'VALIDATION_ERROR' && e.field === 'buying_mode') e.recovery = 'retry-later' as Recovery;
    },
  },
});
