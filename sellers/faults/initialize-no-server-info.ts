import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'initialize-no-server-info',
  description: 'initialize answers without serverInfo',
  trips: { 'transport.initialize': 'fail' },
  behaviour: {
    initialize: (r) => {
      delete r['serverInfo'];
    },
  },
});
