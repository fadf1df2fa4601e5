// error.recovery — `recovery` is present and one of transient, correctable, terminal (a client treats
// an unknown value as terminal, and an absent one by a code table). SHOULD below AdCP 3.1; MUST from 3.1,
// where error-handling.mdx says "Senders MUST populate `error.recovery` on every error" (the release
// notes' SHOULD does not override the normative text).
import { defineCheck, fail, pass } from '../check.ts';
import { own, preview } from '../../json.ts';
import { onAdcpError } from './_adcp-error.ts';

const RECOVERIES = ['transient', 'correctable', 'terminal'];

export default defineCheck({
  id: 'error.recovery',
  scope: 'exchange',
  // 3.1 text: "Senders MUST populate error.recovery on every error" (error-handling.mdx › Forward-compatible
  // decoding); the 3.1 release notes say SHOULD — the normative text wins.
  severity: { byAdcpVersion: [{ from: '3.1', level: 'MUST' }], below: 'SHOULD' },
  live: false,
  title: '`recovery` is present and one of transient, correctable, terminal',
  spec: {
    label:
      'AdCP · Transport error mapping › Recovery behavior (recovery; an unknown value means terminal); from 3.1 MUST: Error handling › Forward-compatible decoding ("Senders MUST populate error.recovery on every error") — the 3.1 release notes say SHOULD; the normative text is followed',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L3/error-handling#forward-compatible-decoding-normative',
  },
  fix: 'set `recovery` to transient, correctable or terminal, e.g. `{"adcp_error":{"code":"VALIDATION_ERROR","message":"…","recovery":"correctable"}}`',
  judge: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      const v = own(error, 'recovery');
      if (typeof v === 'string' && RECOVERIES.includes(v)) return pass();
      return fail(`${pointer}/recovery`, `one of ${RECOVERIES.join(', ')}`, v === undefined ? 'absent' : preview(v));
    }),
});
