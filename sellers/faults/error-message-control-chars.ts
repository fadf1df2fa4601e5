import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'error-message-control-chars',
  description: 'adcp_error.message contains a BEL control character and a U+202E bidi override',
  trips: { 'error.message-safety': 'warn' },
  behaviour: {
    error: (e) => {
      e.message = `Invalid request\u0007: field \u202Eedom_gniyub\u202C is invalid`;
    },
  },
});
