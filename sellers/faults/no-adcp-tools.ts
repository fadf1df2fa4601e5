// An MCP server that is not an AdCP agent at all: one `ping` tool, nothing of AdCP. Every other name is
// an unknown tool, answered the MCP way (JSON-RPC -32602), not with an AdCP error.
import { defineFault } from './_fault.ts';
import { textItem } from './_kit.ts';

const PING = {
  name: 'ping',
  description: 'Answers pong.',
  inputSchema: { type: 'object', properties: {} },
};

export default defineFault({
  name: 'no-adcp-tools',
  description: "tools/list exposes only a non-AdCP tool 'ping'; tools/call of any other name is an unknown tool (JSON-RPC -32602)",
  trips: { 'capabilities.adcp-tools': 'fail', 'capabilities.tool': 'warn' },
  behaviour: {
    tools: (tools) => {
      tools.splice(0, tools.length, structuredClone(PING));
    },
    takeover: (tool) =>
      tool === PING.name
        ? { kind: 'answer', result: { content: [textItem('pong')] } }
        : { kind: 'jsonrpc-error', code: -32602, message: `Unknown tool: ${tool.slice(0, 128)}` },
  },
});
