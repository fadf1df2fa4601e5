import { defineFault } from './_fault.ts';
import { CALL_TARGET } from './_kit.ts';

export default defineFault({
  name: 'hang-on-call',
  description: 'tools/call get_signals is never answered (the process and connection stay up)',
  trips: { 'transport.call': 'fail' },
  behaviour: { takeover: (tool) => (tool === CALL_TARGET ? { kind: 'hang' } : undefined) },
});
