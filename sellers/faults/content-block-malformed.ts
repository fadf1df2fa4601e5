import { defineFault } from './_fault.ts';
import { SUCCESS_TARGET } from './_kit.ts';

export default defineFault({
  name: 'content-block-malformed',
  description: "get_products content gets a second item {type:'text'} without its text field",
  trips: { 'envelope.content-blocks': 'fail' },
  behaviour: {
    result: ({ tool, result }) => (tool === SUCCESS_TARGET ? { ...result, content: [...result.content, { type: 'text' }] } : undefined),
  },
});
