// error.recovery — `recovery` is present and one of transient, correctable, terminal (a client treats
// an unknown value as terminal, and an absent one by a code table).
import { defineCheck, fail, pass } from '../check.ts';
import { own, preview } from '../json.ts';
import { onAdcpError } from './_adcp-error.ts';

const RECOVERIES = ['transient', 'correctable', 'terminal'];

export default defineCheck({
  id: 'error.recovery',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: '`recovery` is present and one of transient, correctable, terminal',
  spec: {
    label: 'AdCP · Transport error mapping › Recovery behavior (recovery; an unknown value means terminal)',
    url: 'https://adcontextprotocol.org/docs/building/operating/transport-errors#recovery-behavior',
  },
  fix: 'set `recovery` to transient, correctable or terminal, e.g. `{"adcp_error":{"code":"VALIDATION_ERROR","message":"…","recovery":"correctable"}}`',
  judge: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      const v = own(error, 'recovery');
      if (typeof v === 'string' && RECOVERIES.includes(v)) return pass();
      return fail(`${pointer}/recovery`, `one of ${RECOVERIES.join(', ')}`, v === undefined ? 'absent' : preview(v));
    }),
});
