import { defineFault } from './_fault.ts';
import { textItem } from './_kit.ts';

export default defineFault({
  name: 'error-text-not-json',
  description: 'AdCP error results carry plain prose as content[0].text instead of the {"adcp_error":…} JSON',
  trips: { 'error.text-mirror': 'warn' },
  behaviour: {
    errorResult: (r) => {
      r.content = [textItem('The request was rejected: fix the highlighted field and retry.')];
      return r;
    },
  },
});
