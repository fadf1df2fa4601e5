import { defineFault } from './_fault.ts';
import { CALL_TARGET } from './_kit.ts';

export default defineFault({
  name: 'crash-mid-call',
  description: 'the seller process exits while handling tools/call get_signals (stdio: the pipe closes; HTTP: the server is gone)',
  trips: { 'transport.call': 'fail' },
  behaviour: { takeover: (tool) => (tool === CALL_TARGET ? { kind: 'crash' } : undefined) },
});
