// error.size — the serialized `adcp_error` is ≤ 4096 bytes (clients discard larger ones).
import { defineCheck, fail, pass } from '../check.ts';
import { MAX_ERROR_BYTES } from '../../extract/error.ts';
import { jsonBytes } from '../../json.ts';
import { onAdcpError } from './_adcp-error.ts';

export default defineCheck({
  id: 'error.size',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'the serialized `adcp_error` is ≤ 4096 bytes',
  spec: {
    label: 'AdCP · Transport error mapping › Client library requirements (serialized error ≤ 4096 bytes; clients discard larger)',
    url: 'https://adcontextprotocol.org/docs/building/operating/transport-errors#client-library-requirements',
  },
  fix: 'keep the serialized `adcp_error` ≤ 4096 bytes: a one-sentence `message`, compact `details` (the page suggests under 500 bytes)',
  judge: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      const bytes = jsonBytes(error);
      if (bytes === null) return fail(pointer, `serializable JSON ≤ ${MAX_ERROR_BYTES} bytes`, 'could not be re-serialized');
      return bytes <= MAX_ERROR_BYTES ? pass() : fail(pointer, `≤ ${MAX_ERROR_BYTES} bytes serialized (UTF-8)`, `${bytes} bytes`);
    }),
});
