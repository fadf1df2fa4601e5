// error.message-safety — `message` ≤ 256 bytes and `suggestion` ≤ 512 bytes (UTF-8), with no control or
// bidi characters: the limits and the stripping AdCP asks every buyer agent to apply to seller text.
// Unsafe characters are the project's one definition (harness/sanitize.ts), zero-width ones included.
import { defineCheck, fail, pass, type Verdict } from '../check.ts';
import { utf8Bytes } from '../../extract/success.ts';
import { describeType, hasOwn, own, preview, type JsonObject } from '../../json.ts';
import { onAdcpError } from './_adcp-error.ts';
import { firstUnsafeChar } from '../../sanitize.ts';

function textSafety(error: JsonObject, pointer: string, key: string, maxBytes: number): Verdict | null {
  if (!hasOwn(error, key)) return null;
  const v = own(error, key);
  if (typeof v !== 'string') return fail(`${pointer}/${key}`, `a string of ≤ ${maxBytes} bytes`, `${describeType(v)} ${preview(v)}`);
  const bytes = utf8Bytes(v);
  if (bytes > maxBytes) return fail(`${pointer}/${key}`, `≤ ${maxBytes} bytes (UTF-8)`, `${bytes} bytes: ${preview(v)}`);
  const bad = firstUnsafeChar(v);
  if (bad) {
    const cp = bad.char.codePointAt(0)!.toString(16).padStart(4, '0');
    return fail(
      `${pointer}/${key}`,
      'no control, bidi or zero-width characters',
      `U+${cp.toUpperCase()} at index ${bad.index}: ${preview(v)}`,
    );
  }
  return null;
}

export default defineCheck({
  id: 'error.message-safety',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: '`message` ≤ 256 bytes, `suggestion` ≤ 512 bytes, no control / bidi characters',
  spec: {
    label:
      'AdCP · Transport error mapping › Security considerations (seller-controlled text: message 256 bytes, suggestion 512 bytes, no control or bidi characters)',
    url: 'https://adcontextprotocol.org/docs/building/operating/transport-errors#security-considerations',
  },
  fix: 'keep `message` to one plain sentence of ≤ 256 bytes and `suggestion` ≤ 512 bytes, without line breaks, control or bidi characters',
  judge: (x) =>
    onAdcpError(
      x,
      ({ error, pointer }) => textSafety(error, pointer, 'message', 256) ?? textSafety(error, pointer, 'suggestion', 512) ?? pass(),
    ),
});
