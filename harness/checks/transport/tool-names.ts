// transport.tool-names — tool names keep to MCP's alphabet, so clients that route by name (or build
// `server/tool` paths) can call them. AdCP's own `tasks/get` and `tasks/list` are excepted.
import { defineCheck, fail, pass } from '../check.ts';
import { own } from '../../json.ts';
import { listedTools, one } from './_listed-tools.ts';
import { describeViolations, violationsOf } from './_violations.ts';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/**
 * AdCP 3.x's own task-polling tool names (required-tasks.mdx: `get_task_status` / `list_tasks` are optional
 * aliases "for legacy `tasks/get`" / "`tasks/list`", and "callers MUST continue to support the legacy names
 * through the 3.x line"): a seller exposing them follows AdCP, so they are not judged by MCP's alphabet.
 */
const ADCP_POLLING_NAMES: ReadonlySet<string> = new Set(['tasks/get', 'tasks/list']);
const SHOWN = 5;

export default defineCheck({
  id: 'transport.tool-names',
  scope: 'agent',
  severity: 'SHOULD',
  live: true,
  title: "tool names follow MCP's naming rule (1–128 of `A-Z a-z 0-9 _ - .`) and are unique",
  spec: {
    label:
      "MCP 2025-11-25 · Server features › Tools › Tool names (SHOULD be 1–128 characters of A-Z a-z 0-9 _ - .; SHOULD be unique); AdCP's own polling tools tasks/get and tasks/list are excepted (AdCP · Required tasks by protocol)",
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names',
  },
  fix: 'rename tools to unique names of 1–128 characters of A-Z a-z 0-9 _ - . (e.g. `get_products`, not `get/products`)',
  judge(a) {
    const listed = listedTools(a);
    if ('verdict' in listed) return one('tools/list', listed.verdict);
    const bad: Array<{ i: number; name: string }> = [];
    listed.tools.forEach((tool, i) => {
      const name = own(tool, 'name');
      if (typeof name === 'string' && !TOOL_NAME.test(name) && !ADCP_POLLING_NAMES.has(name)) bad.push({ i, name });
    });
    if (bad.length === 0) {
      const duplicates = violationsOf(a, ['duplicate-tool-name']) ?? [];
      if (duplicates.length) return one('tools/list', fail('/tools', 'unique tool names', describeViolations(duplicates)));
      return one('tools/list', pass());
    }
    const names = bad
      .slice(0, SHOWN)
      .map((b) => JSON.stringify(b.name.slice(0, 140)))
      .join(', ');
    return one('tools/list', fail(`/tools/${bad[0]!.i}/name`, '1–128 characters of A-Z a-z 0-9 _ - .', `${bad.length} name(s): ${names}`));
  },
});
