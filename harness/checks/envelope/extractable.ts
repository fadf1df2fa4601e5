// envelope.extractable — the AdCP success extraction (structuredContent, else the first text item whose
// JSON is an object, never an adcp_error alone) yields an object for every AdCP task that succeeded.
import { defineCheck, fail, notApplicable, pass, untested } from '../check.ts';
import { isAdcpErrorOnly } from '../../extract/success.ts';
import { describeType, hasOwn, isObject, own, preview } from '../../json.ts';
import { isAdcpTask } from '../../adcp-tasks.ts';
import { adcpPayload, successResult, textItems } from '../views.ts';

export default defineCheck({
  id: 'envelope.extractable',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'the success extraction yields an AdCP object for every AdCP tool call that succeeded',
  spec: {
    label: 'AdCP · MCP response extraction › Extraction algorithm (steps 1–4)',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-response-extraction#extraction-algorithm',
  },
  fix: 'return the AdCP response as `structuredContent` (e.g. `{"status":"completed","products":[…]}`) or at least as JSON in a text item, not prose alone',
  judge(x) {
    const s = successResult(x);
    if ('verdict' in s) return s.verdict;
    if (!isAdcpTask(x.tool)) return notApplicable(`'${String(x.tool)}' is not an AdCP task`);
    if (adcpPayload(s.result)) return pass();
    // An adcp_error-only "success" fails here too: the client extracts nothing (and
    // envelope.adcp-error-only-success names the cause).
    const texts = textItems(s.result);
    const sc = own(s.result, 'structuredContent');
    if (!isObject(sc) && texts.some((t) => t.oversize)) return untested('the only candidate text is over 1 MiB: see envelope.size');
    const scState = isAdcpErrorOnly(sc)
      ? 'structuredContent is adcp_error alone'
      : hasOwn(s.result, 'structuredContent')
        ? `structuredContent is ${describeType(sc)}`
        : 'structuredContent absent';
    return fail(
      '/result',
      'structuredContent object, or a text item whose JSON is an object',
      `${scState}; ${texts.length} text item(s), none parses to a JSON object other than adcp_error alone${texts[0] ? ` (first: ${preview(texts[0].text)})` : ''}`,
    );
  },
});
