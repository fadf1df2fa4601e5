import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'error-message-long',
  description: 'adcp_error.message is 300 bytes long (limit 256)',
  trips: { 'error.message-safety': 'warn' },
  behaviour: {
    error: (e) => {
      // 300 ASCII characters = 300 UTF-8 bytes.
      e.message = 'Invalid request: the value of buying_mode does not match the input schema. '.repeat(5).slice(0, 300);
    },
  },
});
