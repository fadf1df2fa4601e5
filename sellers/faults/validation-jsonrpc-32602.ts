import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'validation-jsonrpc-32602',
  description: 'input that breaks the input schema is answered with a bare JSON-RPC -32602 error string, not an AdCP error',
  trips: { 'error.validation': 'warn' },
  behaviour: {
    invalidInput: { kind: 'jsonrpc-error', code: -32602, message: 'Invalid params: arguments do not match the input schema' },
  },
});
