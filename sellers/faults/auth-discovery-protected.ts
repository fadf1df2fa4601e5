// A seller with a bearer token that protects everything: discovery (and initialize) need the token too.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'auth-discovery-protected',
  description: 'HTTP with --token: every request needs the token, initialize and the public discovery tasks included',
  trips: { 'auth.public-discovery': 'warn' },
  transports: ['http'],
  agent: { credentials: true },
  behaviour: { transport: 'http-auth-discovery-protected' },
});
