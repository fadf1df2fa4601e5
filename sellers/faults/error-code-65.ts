import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'error-code-65',
  description: 'adcp_error.code is 65 characters long',
  // version.echo: a client discards an error whose code is not 1–64 characters, its adcp_version echo with it.
  trips: { 'error.code': 'fail', 'version.echo': 'warn' },
  behaviour: {
    error: (e) => {
      e.code = `VALIDATION_ERROR_${'X'.repeat(65 - 'VALIDATION_ERROR_'.length)}`;
    },
  },
});
