import { defineFault } from './_fault.ts';
import { toolSpecs } from '../reference/tools.ts';

export default defineFault({
  name: 'legacy-result-wrapper',
  description:
    'a stale process: tools/list advertises the root shape ($ref into $defs) but meta-id tools still answer {result:{…}}; the text mirrors the inner payload',
  trips: {
    'schema.legacy-wrapper': 'warn',
    'envelope.status': 'warn',
    'envelope.context-echo': 'fail',
    'envelope.text-mirror': 'warn',
    // The echo is inside the wrapper, where a client reading the root does not find it.
    'version.echo': 'warn',
    'schema.adcp-response': 'fail',
  },
  tripsByAdcpVersion: { '3.1': { 'envelope.status': 'fail' } },
  behaviour: {
    // A stale process: tools/list already says root shape (2.4.0), answers still come wrapped.
    result: ({ tool, result }) =>
      toolSpecs.find((s) => s.name === tool)?.metaId ? { ...result, structuredContent: { result: result.structuredContent } } : undefined,
  },
});
