// A seller whose read tools validate their input strictly (a Pydantic / zod `.strict()` wrapper): a call
// carrying the envelope fields `governance_context`, `push_notification_config` or `context_id` is refused
// with VALIDATION_ERROR instead of served. Mutating tools are left alone.
import { defineFault } from './_fault.ts';
import { toolSpecs } from '../reference/tools.ts';

const ENVELOPE = ['governance_context', 'push_notification_config', 'context_id'];

export default defineFault({
  name: 'protocol-fields-rejected',
  description: 'read tools refuse the envelope fields context_id / push_notification_config / governance_context with VALIDATION_ERROR',
  trips: { 'envelope.protocol-fields': 'fail' },
  behaviour: {
    request: (tool, args) => {
      if (toolSpecs.find((s) => s.name === tool)?.mutating !== false) return;
      const present = ENVELOPE.find((k) => Object.prototype.hasOwnProperty.call(args, k));
      // A wrong type makes the seller's own input validation refuse the field, as a strict wrapper would.
      if (present !== undefined) args['context_id'] = { unexpected: present };
    },
  },
});
