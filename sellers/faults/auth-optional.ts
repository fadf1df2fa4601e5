// A seller with a bearer token that only checks the token when one is sent: no Authorization at all is served.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'auth-optional',
  description: 'HTTP with --token: a request with a wrong token gets 401, but a request without Authorization is served',
  trips: { 'auth.unauthenticated': 'fail' },
  transports: ['http'],
  agent: { credentials: true },
  behaviour: { transport: 'http-auth-optional' },
});
