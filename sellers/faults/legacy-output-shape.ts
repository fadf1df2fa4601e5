import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'legacy-output-shape',
  description:
    'same as --output-shape legacy (MCP SDK 2.0–2.3): meta-id tools advertise {properties:{result:{$ref}}} and answer {result:{…}}; the text still mirrors the inner payload',
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
  behaviour: { outputShape: 'legacy' },
});
