// envelope.adcp-error-only-success — a success never carries an `adcp_error`-only object (in
// structuredContent or in a text item): that is an error missing its `isError` flag, and a conformant
// client extracts nothing from it.
import { defineCheck, fail, pass } from '../check.ts';
import { isAdcpErrorOnly } from '../../extract/success.ts';
import { own, preview } from '../../json.ts';
import { successResult, textItems } from '../views.ts';

export default defineCheck({
  id: 'envelope.adcp-error-only-success',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'a success never carries an `adcp_error`-only object (an error missing its `isError` flag)',
  spec: {
    label: 'AdCP · MCP response extraction › Extraction algorithm (steps 2–3) and client requirement 4',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-response-extraction#extraction-algorithm',
  },
  fix: 'flag errors: `"isError": true` with `{"adcp_error":{"code":"RATE_LIMITED","message":"…","recovery":"transient"}}`; never an adcp_error alone in a success',
  judge(x) {
    const s = successResult(x);
    if ('verdict' in s) return s.verdict;
    const sc = own(s.result, 'structuredContent');
    if (isAdcpErrorOnly(sc))
      return fail('/result/structuredContent', 'an error flagged isError:true', `adcp_error alone, isError absent: ${preview(sc)}`);
    for (const t of textItems(s.result)) {
      if (isAdcpErrorOnly(t.json?.value)) {
        return fail(
          `/result/content/${t.index}/text`,
          'an error flagged isError:true',
          `adcp_error alone, isError absent: ${preview(t.text)}`,
        );
      }
    }
    return pass();
  },
});
