import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'error-code-65',
  description: 'adcp_error.code is 65 characters long',
  trips: { 'error.code': 'fail' },
  behaviour: {
    error: (e) => {
      e.code = `VALIDATION_ERROR_${'X'.repeat(65 - 'VALIDATION_ERROR_'.length)}`;
    },
  },
});
