import { defineFault } from './_fault.ts';
import { MISSING_REQUIRED_TARGET } from './_kit.ts';

export default defineFault({
  name: 'adcp-response-missing-required',
  description: "list_creative_formats payload drops the required 'formats' (AdCP response schema: required property at pointer /formats)",
  trips: { 'schema.adcp-response': 'fail' },
  behaviour: {
    payload: (tool, p) => {
      if (tool === MISSING_REQUIRED_TARGET) delete p['formats'];
    },
  },
});
