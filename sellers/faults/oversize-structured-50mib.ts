import { defineFault } from './_fault.ts';
import { ONE_MIB, SUCCESS_TARGET } from './_kit.ts';

export default defineFault({
  name: 'oversize-structured-50mib',
  description:
    'get_products structuredContent padded (ext) to 50 MiB and streamed at once: past the harness byte cap, the call is cut while reading',
  trips: { 'transport.call': 'fail', 'envelope.size': 'fail' },
  behaviour: { stream: { tool: SUCCESS_TARGET, bytes: 50 * ONE_MIB } },
});
