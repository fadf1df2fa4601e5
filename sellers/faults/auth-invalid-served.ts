// A seller with a bearer token that only checks a token is there: any Bearer value is served, a wrong one too.
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'auth-invalid-served',
  description: 'HTTP with --token: a request without Authorization is refused, but any Bearer token, a wrong one too, is served',
  trips: { 'auth.invalid-credentials': 'fail' },
  transports: ['http'],
  agent: { credentials: true },
  behaviour: { transport: 'http-auth-any-token' },
});
