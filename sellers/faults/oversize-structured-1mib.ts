import { defineFault } from './_fault.ts';
import { ONE_MIB, onTarget, padTo } from './_kit.ts';

export default defineFault({
  name: 'oversize-structured-1mib',
  description:
    'get_products structuredContent padded (ext) to 1 MiB + 4 KiB; text is a short summary, the message stays under the byte cap',
  trips: { 'envelope.size': 'fail' },
  behaviour: {
    payload: onTarget((p) => {
      padTo(p, ONE_MIB + 4096);
      return { text: 'summary' };
    }),
  },
});
