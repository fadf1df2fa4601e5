import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'stdout-logs',
  description: 'the stdio server writes a plain log line to stdout before each tools/call answer',
  trips: { 'transport.stdio-stdout': 'fail' },
  transports: ['stdio'],
  behaviour: { transport: 'stdio-stdout' },
});
