// capabilities.adcp-tools — the agent is an AdCP agent at all: it exposes `get_adcp_capabilities` or at
// least one AdCP task. An MCP server with neither gets no AdCP call, so every other AdCP check would be
// left untested; this check says plainly why.
import { isAdcpTask } from '../../adcp-tasks.ts';
import { defineCheck, fail, pass } from '../check.ts';
import { own } from '../../json.ts';
import { listedTools, one } from '../transport/_listed-tools.ts';
import { CAPABILITIES_TOOL, listedNames } from './_tools.ts';

export default defineCheck({
  id: 'capabilities.adcp-tools',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title: 'the agent exposes `get_adcp_capabilities` or at least one AdCP task; an MCP server with none is not an AdCP agent',
  spec: {
    label: 'AdCP · MCP guide (an AdCP agent exposes the AdCP tasks as MCP tools, discovered through get_adcp_capabilities)',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-guide',
  },
  fix:
    'expose the AdCP tasks you implement as MCP tools under their AdCP names (e.g. `get_adcp_capabilities`, `get_products`); ' +
    'check the config points at your AdCP agent',
  judge(a) {
    const listed = listedTools(a);
    if ('verdict' in listed) return one('tools/list', listed.verdict);
    if (listed.tools.some((t) => isAdcpTask(own(t, 'name')))) return one('tools/list', pass());
    return one(
      'tools/list',
      fail(
        '/tools',
        `${CAPABILITIES_TOOL} or at least one AdCP task (e.g. get_products)`,
        `${listedNames(listed.tools)}: not an AdCP agent`,
      ),
    );
  },
});
