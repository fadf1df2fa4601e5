// error.code — `code` is a string of 1–64 characters (clients discard an error whose code is not).
import { defineCheck, fail, pass } from '../check.ts';
import { MAX_CODE_LENGTH } from '../../extract/error.ts';
import { describeType, own, preview } from '../../json.ts';
import { onAdcpError } from './_adcp-error.ts';

export default defineCheck({
  id: 'error.code',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`code` is a string of 1–64 characters',
  spec: {
    label:
      'AdCP · Transport error mapping › Client library requirements (code: a non-empty string, max 64 chars; clients discard others); AdCP core/error.json',
    url: 'https://adcontextprotocol.org/docs/building/operating/transport-errors#client-library-requirements',
  },
  fix: 'give `adcp_error.code` a 1–64 character string, e.g. `{"adcp_error":{"code":"VALIDATION_ERROR","message":"…","recovery":"correctable"}}`; own codes as `X_<VENDOR>_<CODE>`',
  judge: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      const v = own(error, 'code');
      if (typeof v === 'string' && v.length >= 1 && v.length <= MAX_CODE_LENGTH) return pass();
      const found =
        typeof v === 'string' ? `${v.length} chars ${preview(v)}` : v === undefined ? 'absent' : `${describeType(v)} ${preview(v)}`;
      return fail(`${pointer}/code`, `a string of 1–${MAX_CODE_LENGTH} characters`, found);
    }),
});
