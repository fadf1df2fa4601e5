// error.text-mirror — the error also travels as `{"adcp_error":…}` JSON in content[0].text, for the
// clients that read only text (most MCP hosts today).
import { defineCheck, fail, pass } from '../check.ts';
import { locateAdcpError } from '../../extract/error.ts';
import { isObject, jsonEqual, own, preview } from '../../json.ts';
import { errorResult, textItems } from '../views.ts';
import { withoutAdcpError } from './_adcp-error.ts';

export default defineCheck({
  id: 'error.text-mirror',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: 'the error also travels as `{"adcp_error":…}` JSON in `content[0].text`',
  spec: {
    label: 'AdCP · Transport error mapping › MCP binding › Tool-level errors (the same {"adcp_error":…} JSON as content[0].text)',
    url: 'https://adcontextprotocol.org/docs/building/operating/transport-errors#tool-level-errors',
  },
  fix: 'put `JSON.stringify({adcp_error})` first in `content`, e.g. `{"adcp_error":{"code":"VALIDATION_ERROR","message":"…","recovery":"correctable"}}`; prose goes in a second item',
  judge(x) {
    const r = errorResult(x);
    if ('verdict' in r) return r.verdict;
    const scError = own(own(r.result, 'structuredContent'), 'adcp_error');
    const first = textItems(r.result).find((t) => t.index === 0);
    const textError = isObject(first?.json?.value) ? own(first.json.value, 'adcp_error') : undefined;
    if (isObject(scError)) {
      if (textError !== undefined && jsonEqual(textError, scError)) return pass();
      return fail(
        '/result/content/0/text',
        'JSON {"adcp_error":…} equal to structuredContent.adcp_error',
        first ? preview(first.text) : 'no text item at content[0]',
      );
    }
    if (isObject(textError)) return pass(); // the text is the only carrier: it mirrors nothing but is there
    const located = locateAdcpError(x.outcome);
    if (located?.source === 'text_fallback') {
      return fail('/result/content/0/text', 'the {"adcp_error":…} JSON in content[0]', `it is at ${located.pointer}`);
    }
    return withoutAdcpError(x.tool);
  },
});
