// capabilities.tool — `get_adcp_capabilities` is exposed: without it a client must assume AdCP v2.
import { defineCheck, fail, pass } from '../check.ts';
import { listedTools, one } from '../transport/_listed-tools.ts';
import { CAPABILITIES_TOOL, toolIndex } from './_tools.ts';

export default defineCheck({
  id: 'capabilities.tool',
  scope: 'agent',
  severity: 'SHOULD',
  live: false,
  title: '`get_adcp_capabilities` is exposed (without it a client must assume AdCP v2)',
  spec: {
    label: 'AdCP · Versioning › capability discovery (get_adcp_capabilities; absent → the client assumes v2)',
    url: 'https://adcontextprotocol.org/docs/reference/versioning',
  },
  fix: 'expose a `get_adcp_capabilities` tool answering `{adcp:{major_versions:[3], supported_versions:["3.0"]}, supported_protocols:[…]}`',
  judge(a) {
    const listed = listedTools(a);
    if ('verdict' in listed) return one('tools/list', listed.verdict);
    if (toolIndex(listed.tools, CAPABILITIES_TOOL) >= 0) return one('tools/list', pass());
    return one(
      'tools/list',
      fail('/tools', `a tool named ${CAPABILITIES_TOOL}`, `${listed.tools.length} tool(s), none named ${CAPABILITIES_TOOL}`),
    );
  },
});
