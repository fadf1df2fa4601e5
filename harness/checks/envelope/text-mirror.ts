// envelope.text-mirror — where a text item parses to an object and structuredContent exists, both are
// the same data (MCP: a tool returning structured content SHOULD also return it serialized as text).
import { defineCheck, fail, notApplicable, pass, untested } from '../check.ts';
import { isAdcpErrorOnly } from '../../extract/success.ts';
import { isObject, jsonEqual, own, preview } from '../../json.ts';
import { successResult, textItems } from '../views.ts';

export default defineCheck({
  id: 'envelope.text-mirror',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: 'where a text item parses to an object and `structuredContent` exists, both are the same data',
  spec: {
    label:
      'MCP 2025-11-25 · Tools › Structured content (SHOULD also return the serialized JSON in a TextContent block); AdCP · MCP response extraction › Extraction paths',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#structured-content',
  },
  fix: 'make the JSON text item `JSON.stringify(structuredContent)`, or keep that text item prose',
  judge(x) {
    const s = successResult(x);
    if ('verdict' in s) return s.verdict;
    const sc = own(s.result, 'structuredContent');
    if (!isObject(sc)) return notApplicable('no structuredContent object to mirror');
    if (isAdcpErrorOnly(sc)) return untested('adcp_error-only success: see envelope.adcp-error-only-success');
    const mirrors = textItems(s.result).filter((t) => isObject(t.json?.value) && !isAdcpErrorOnly(t.json?.value));
    if (mirrors.length === 0) return notApplicable('no text item carries a JSON object');
    for (const t of mirrors) {
      if (!jsonEqual(t.json?.value, sc))
        return fail(`/result/content/${t.index}/text`, 'the same JSON object as structuredContent', preview(t.text));
    }
    return pass();
  },
});
