import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'initialize-unsupported-protocol',
  description: "initialize answers with protocolVersion '2023-01-01', a revision no client supports",
  trips: { 'transport.initialize': 'fail' },
  behaviour: {
    initialize: (r) => {
      r['protocolVersion'] = '2023-01-01';
    },
  },
});
