import { defineFault } from './_fault.ts';

export default defineFault({
  name: 'is-error-string',
  description: "AdCP error results carry isError: 'true' (a string) instead of the boolean",
  trips: { 'envelope.is-error-type': 'fail' },
  behaviour: {
    errorResult: (r) => {
      r.isError = 'true';
      return r;
    },
  },
});
