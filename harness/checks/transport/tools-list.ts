// transport.tools-list — `tools/list` answers, and every tool in it has a string name and an object
// inputSchema of type `object` (what an MCP client needs to call the tool at all).
import { defineCheck, fail, pass, untested } from '../check.ts';
import { describeType, isObject, own, preview } from '../../json.ts';
import { one } from './_listed-tools.ts';
import { describeViolations, violationsOf } from './_violations.ts';

export default defineCheck({
  id: 'transport.tools-list',
  scope: 'agent',
  severity: 'MUST',
  live: true,
  title: '`tools/list` is well formed: names are strings, each `inputSchema` is an object schema of type `object`',
  spec: {
    label: 'MCP 2025-11-25 · Server features › Tools › Listing tools (Tool: name, inputSchema of type "object")',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools',
  },
  fix: 'answer tools/list with `{tools:[{name:"get_products", inputSchema:{type:"object", properties:{…}}}, …]}`',
  judge(a) {
    if (!a.initialize.ok) return one('tools/list', untested('initialize failed: see transport.initialize'));
    const list = a.toolsList;
    if (!list) {
      const cut = a.aborted ? `the session was cut: ${a.aborted.kind}: ${a.aborted.message}` : 'none recorded';
      return one('tools/list', fail('/tools', 'a tools/list answer', cut));
    }
    if (!list.ok) return one('tools/list', fail('/tools', 'a tools/list answer', `${list.failure.kind}: ${list.failure.message}`));
    if (!Array.isArray(list.tools)) return one('tools/list', fail('/tools', 'an array of tools', describeType(list.tools)));
    for (let i = 0; i < list.tools.length; i++) {
      const tool: unknown = list.tools[i];
      if (!isObject(tool)) return one('tools/list', fail(`/tools/${i}`, 'a tool object', `${describeType(tool)} ${preview(tool)}`));
      const name = own(tool, 'name');
      if (typeof name !== 'string')
        return one('tools/list', fail(`/tools/${i}/name`, 'a string', `${describeType(name)} ${preview(name)}`));
      const input = own(tool, 'inputSchema');
      if (!isObject(input))
        return one('tools/list', fail(`/tools/${i}/inputSchema`, 'a JSON Schema object', `${describeType(input)} ${preview(input)}`));
      if (own(input, 'type') !== 'object') {
        return one(
          'tools/list',
          fail(`/tools/${i}/inputSchema/type`, '"object"', `${preview(own(input, 'type'))} (tool ${preview(name)})`),
        );
      }
    }
    // A list that never ends is not a list: the harness stopped following nextCursor (capture-agent).
    const endless = violationsOf(a, ['endless-pagination']) ?? [];
    if (endless.length) return one('tools/list', fail('/tools', 'a tools/list whose nextCursor ends', describeViolations(endless)));
    return one('tools/list', pass());
  },
});
