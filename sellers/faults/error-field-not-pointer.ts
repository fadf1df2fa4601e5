import { defineFault } from './_fault.ts';

// A seller that copies the RFC 6901 pointer into `field` instead of translating it to JSONPath-lite.
export default defineFault({
  name: 'error-field-not-pointer',
  description: "an error with issues carries field = issues[0].pointer untranslated ('/buying_mode', not 'buying_mode')",
  trips: {},
  tripsByAdcpVersion: { '3.1': { 'error.field-pointer': 'fail' } },
  behaviour: {
    error: (e) => {
      const first = e.issues?.[0];
      if (first) e.field = first.pointer;
    },
  },
});
