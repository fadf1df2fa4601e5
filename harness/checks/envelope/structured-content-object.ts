// envelope.structured-content-object — `structuredContent`, when present, is a non-array JSON object.
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { describeType, hasOwn, isObject, own, preview } from '../../json.ts';
import { successResult } from '../views.ts';

export default defineCheck({
  id: 'envelope.structured-content-object',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`structuredContent` is a non-array JSON object',
  spec: {
    label: 'MCP 2025-11-25 · Tools › Structured content (a JSON object); AdCP · MCP response extraction › algorithm step 2',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#structured-content',
  },
  fix: 'make `structuredContent` the AdCP response object itself, e.g. `{"status":"completed","products":[…]}`; never an array, string or null',
  judge(x) {
    const s = successResult(x);
    if ('verdict' in s) return s.verdict;
    // Whether it had to be there is envelope.structured-content's question; this rule is about its shape.
    if (!hasOwn(s.result, 'structuredContent'))
      return notApplicable('no structuredContent (whether one is required is envelope.structured-content)');
    const sc = own(s.result, 'structuredContent');
    return isObject(sc) ? pass() : fail('/result/structuredContent', 'a non-array JSON object', `${describeType(sc)} ${preview(sc)}`);
  },
});
