// A seller that negotiates the release but never says which one it served: no `adcp_version` on any
// answer, success or error. version.release-negotiation then judges served vs refused only (the release
// served stays unverified); version.echo warns (a SHOULD through 3.x).
import { defineFault } from './_fault.ts';
import { isPlainObject } from '../reference/json.ts';
import type { ToolResult } from '../reference/envelope.ts';

export default defineFault({
  name: 'version-no-echo',
  description: 'no answer carries adcp_version (the release served is never echoed)',
  trips: { 'version.echo': 'warn' },
  behaviour: {
    payload: (_tool, p) => {
      delete p['adcp_version'];
    },
    errorResult: (result: ToolResult) => {
      const sc = result.structuredContent;
      if (!isPlainObject(sc)) return result;
      const { adcp_version: _dropped, ...rest } = sc;
      return { ...result, structuredContent: rest };
    },
  },
});
