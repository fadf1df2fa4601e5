import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'jsonrpc-undeclared-request',
  description:
    'while answering tools/call get_signals, the stdio server sends a roots/list request, a capability the client never declared',
  trips: { 'transport.jsonrpc': 'fail' },
  transports: ['stdio'],
  behaviour: { transport: 'stdio-undeclared-request' },
});
