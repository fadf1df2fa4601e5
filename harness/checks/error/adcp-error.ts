// error.adcp-error — an isError:true result carries an `adcp_error` object (structuredContent, else text
// JSON). A tool that is not an AdCP task may report errors the plain MCP way (isError + text).
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { locateAdcpError } from '../../extract/error.ts';
import { describeType, isObject, own, preview } from '../../json.ts';
import { isAdcpTask } from '../../adcp-tasks.ts';
import { errorResult } from '../views.ts';

export default defineCheck({
  id: 'error.adcp-error',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'an `isError:true` result carries an `adcp_error` (structuredContent, else text JSON)',
  spec: {
    label:
      'AdCP · Transport error mapping › MCP binding › Tool-level errors (isError + structuredContent.adcp_error) and client detection order',
    url: 'https://adcontextprotocol.org/docs/building/operating/transport-errors#tool-level-errors',
  },
  fix: 'return errors as `"isError": true` with `structuredContent: {"adcp_error":{"code":"VALIDATION_ERROR","message":"…","recovery":"correctable"}}` and the same JSON in `content[0].text`',
  judge(x) {
    const r = errorResult(x);
    if ('verdict' in r) return r.verdict;
    const located = locateAdcpError(x.outcome);
    // Another tool on the same server may report errors the plain MCP way (isError + text): conformant.
    if (!located && !isAdcpTask(x.tool))
      return notApplicable(`'${String(x.tool)}' is not an AdCP task: a plain MCP tool error is conformant`);
    if (!located || located.source === 'payload_errors') {
      const sc = own(r.result, 'structuredContent');
      const found = located
        ? `only a payload errors[0] at ${located.pointer}`
        : `structuredContent ${sc === undefined ? 'absent' : preview(sc)}; no text item with {"adcp_error":…}`;
      return fail(
        '/result/structuredContent/adcp_error',
        'an adcp_error object (structuredContent.adcp_error, else JSON in a text item)',
        found,
      );
    }
    if (!isObject(located.raw))
      return fail(`/result${located.pointer}`, 'an adcp_error object', `${describeType(located.raw)} ${preview(located.raw)}`);
    return pass();
  },
});
