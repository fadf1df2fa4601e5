import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'http-bad-content-type',
  description: 'the HTTP answer to tools/call get_signals says Content-Type: text/plain (body unchanged), so no client reads it',
  trips: { 'transport.http-response': 'fail', 'transport.call': 'fail' },
  transports: ['http'],
  behaviour: { transport: 'http-content-type' },
});
