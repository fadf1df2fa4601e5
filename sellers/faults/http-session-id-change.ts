import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'http-session-id-change',
  description: 'every HTTP response after initialize carries a new Mcp-Session-Id (the server still accepts each)',
  trips: { 'transport.http-response': 'fail' },
  transports: ['http'],
  behaviour: { transport: 'http-session-id' },
});
