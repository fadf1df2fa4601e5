// error.retry-after — `retry_after`, when present, is an integer number of seconds from 1 to 3600.
import { defineCheck, fail, pass } from '../check.ts';
import { RETRY_AFTER_MAX, RETRY_AFTER_MIN } from '../../extract/error.ts';
import { describeType, hasOwn, own, preview } from '../../json.ts';
import { onAdcpError } from './_adcp-error.ts';

export default defineCheck({
  id: 'error.retry-after',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`retry_after`, when present, is an integer 1–3600',
  spec: {
    label: 'AdCP · Transport error mapping › Recovery behavior (retry_after: an integer from 1 through 3600 seconds); AdCP core/error.json',
    url: 'https://adcontextprotocol.org/docs/building/operating/transport-errors#recovery-behavior',
  },
  fix: 'send `retry_after` as whole seconds from 1 to 3600 (round up, then clamp), e.g. `{"adcp_error":{"code":"RATE_LIMITED","message":"…","retry_after":5,"recovery":"transient"}}`',
  judge: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      if (!hasOwn(error, 'retry_after')) return pass();
      const v = own(error, 'retry_after');
      if (typeof v === 'number' && Number.isInteger(v) && v >= RETRY_AFTER_MIN && v <= RETRY_AFTER_MAX) return pass();
      // preview() names Infinity (1e400 once parsed) as not a finite number; JSON.stringify would say `null`.
      return fail(`${pointer}/retry_after`, `an integer from ${RETRY_AFTER_MIN} to ${RETRY_AFTER_MAX}`, `${describeType(v)} ${preview(v)}`);
    }),
});
