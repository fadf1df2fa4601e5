import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'error-stack-trace',
  description: 'adcp_error.message is a TypeError text and details.stack holds stack frames with /srv/… file paths',
  trips: { 'error.no-internals': 'warn' },
  behaviour: {
    error: (e) => {
      e.message = "TypeError: Cannot use 'in' operator to search for 'buying_mode' in 42";
      e.details = {
        ...e.details,
        stack: [
          "TypeError: Cannot use 'in' operator to search for 'buying_mode' in 42",
          '    at Object.<anonymous> (/srv/seller/dist/tools/get-products.js:42:17)',
          '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
        ].join('\n'),
      };
    },
  },
});
