// envelope.structured-content — a success carries `structuredContent`. The level follows the negotiated
// MCP revision: MUST from 2025-06-18 (the first revision that defines it), SHOULD under 2025-03-26 (the
// revision the AdCP page names), not checked before.
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { hasOwn } from '../../json.ts';
import { isAdcpTask } from '../../adcp-tasks.ts';
import { outputSchemaOf, successResult, textItems } from '../views.ts';

export default defineCheck({
  id: 'envelope.structured-content',
  scope: 'exchange',
  severity: {
    byMcpRevision: [
      { from: '2025-06-18', level: 'MUST' },
      { from: '2025-03-26', level: 'SHOULD' },
    ],
    below: { notApplicable: 'the negotiated MCP revision predates structuredContent (first defined in 2025-06-18; AdCP names 2025-03-26)' },
  },
  live: false,
  title: 'a success carries `structuredContent`',
  spec: {
    label: 'AdCP · MCP response extraction › structuredContent (preferred; MCP 2025-03-26+); MCP 2025-11-25 · Tools › Structured content',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-response-extraction#structuredcontent-preferred',
  },
  fix: 'return the AdCP response object as `structuredContent`, e.g. `{"status":"completed","products":[…]}`, with its JSON also in a text item',
  judge(x) {
    const s = successResult(x);
    if ('verdict' in s) return s.verdict;
    // MCP makes structuredContent optional for a tool without an outputSchema; only AdCP asks for it.
    if (!isAdcpTask(x.tool) && outputSchemaOf(x) === undefined) {
      return notApplicable(`'${String(x.tool)}' is not an AdCP task and declares no outputSchema: structuredContent is optional in MCP`);
    }
    if (hasOwn(s.result, 'structuredContent')) return pass();
    return fail(
      '/result/structuredContent',
      `structuredContent with the AdCP payload (MCP ${String(x.protocolVersion)})`,
      `absent; content has ${textItems(s.result).length} text item(s)`,
    );
  },
});
