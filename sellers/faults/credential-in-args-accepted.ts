// A seller that does not look for credentials in the payload: ext.api_key is ignored and the call served.
import { isPlainObject } from '../reference/json.ts';
import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'credential-in-args-accepted',
  description: 'a request carrying ext.api_key (a credential in the arguments) is served instead of refused with CREDENTIAL_IN_ARGS',
  trips: {},
  tripsByAdcpVersion: { '3.1': { 'auth.credential-in-args': 'fail' } },
  behaviour: {
    request(_tool, args) {
      const ext = args['ext'];
      if (isPlainObject(ext)) delete ext['api_key'];
    },
  },
});
