// envelope.is-error-type — `isError`, when present, is a boolean (on every result, errors included).
import { defineCheck, fail, pass, untested } from '../check.ts';
import { describeType, hasOwn, isObject, own, preview } from '../../json.ts';
import { toolResult } from './_tool-result.ts';

export default defineCheck({
  id: 'envelope.is-error-type',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`isError`, when present, is a boolean',
  spec: {
    label: 'MCP 2025-11-25 · Server features › Tools › Tool result (CallToolResult.isError?: boolean)',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result',
  },
  fix: 'send `"isError": true` (a JSON boolean) on errors and leave it out (or `false`) on success; never a string or null',
  judge(x) {
    const r = toolResult(x);
    if ('verdict' in r) return r.verdict;
    if (!isObject(r.result)) return untested('the result is not a JSON object: see envelope.content-blocks');
    if (!hasOwn(r.result, 'isError')) return pass();
    const v = own(r.result, 'isError');
    return typeof v === 'boolean'
      ? pass()
      : fail('/result/isError', 'a boolean (true or false) or no isError key', `${describeType(v)} ${preview(v)}`);
  },
});
