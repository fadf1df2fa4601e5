import { defineFault } from './_fault.ts';
import { CALL_TARGET } from './_kit.ts';

export default defineFault({
  name: 'jsonrpc-rate-limit-no-data',
  description: 'tools/call get_signals is answered with JSON-RPC error -32029 without error.data.adcp_error',
  trips: { 'error.jsonrpc-data': 'fail' },
  behaviour: {
    takeover: (tool) => (tool === CALL_TARGET ? { kind: 'jsonrpc-error', code: -32029, message: 'Rate limit exceeded' } : undefined),
  },
});
