// transport.* — the MCP session itself: handshake, tool list, stdio hygiene, streamable HTTP, and (an id
// this harness adds) that every tools/call got an answer at all. All need a live session's facts.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { AgentCapture } from '../capture/exchange.ts';
import { fail, pass, skip, type AgentCheck, type AgentVerdict, type ExchangeCheck, type Verdict } from './check.ts';
import { describeType, isObject, own, preview } from './json.ts';

const one = (subject: string, verdict: Verdict): AgentVerdict[] => [{ subject, verdict }];

export const initialize: AgentCheck = {
  id: 'transport.initialize',
  scope: 'agent',
  severity: 'MUST',
  live: true,
  title: '`initialize` answers within the timeout with a protocol revision the harness supports and a `serverInfo`',
  spec: 'MCP 2025-06-18 · Basic › Lifecycle › Initialization (protocolVersion, serverInfo: Implementation {name, version})',
  run(a) {
    const init = a.initialize;
    if (!init.ok) return one('initialize', fail('/initialize', 'an initialize answer within the connect timeout', `${init.failure.kind}: ${init.failure.message}`));
    const revision = init.protocolVersion;
    if (typeof revision !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(revision)) {
      return one('initialize', fail('/initialize/protocolVersion', `one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`, preview(revision)));
    }
    const info = init.serverInfo;
    if (!isObject(info) || typeof own(info, 'name') !== 'string' || typeof own(info, 'version') !== 'string') {
      return one('initialize', fail('/initialize/serverInfo', 'an object with string name and version', info === undefined ? 'absent' : preview(info)));
    }
    return one('initialize', pass());
  },
};

/** The listed tools, or the verdict that stands in for them (initialize or tools/list failed). */
export function listedTools(a: AgentCapture): { tools: unknown[] } | { skip: string } {
  if (!a.initialize.ok) return { skip: 'initialize failed: see transport.initialize' };
  if (!a.toolsList) return { skip: 'no tools/list answer recorded: see transport.tools-list' };
  if (!a.toolsList.ok) return { skip: 'tools/list failed: see transport.tools-list' };
  if (!Array.isArray(a.toolsList.tools)) return { skip: 'tools/list is malformed: see transport.tools-list' };
  return { tools: a.toolsList.tools };
}

export const toolsList: AgentCheck = {
  id: 'transport.tools-list',
  scope: 'agent',
  severity: 'MUST',
  live: true,
  title: '`tools/list` is well formed: names are strings, each `inputSchema` is an object schema of type `object`',
  spec: 'MCP 2025-06-18 · Server features › Tools › Listing tools (Tool: name: string, inputSchema: {type: "object"})',
  run(a) {
    if (!a.initialize.ok) return one('tools/list', skip('initialize failed: see transport.initialize'));
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
      if (typeof name !== 'string') return one('tools/list', fail(`/tools/${i}/name`, 'a string', `${describeType(name)} ${preview(name)}`));
      const input = own(tool, 'inputSchema');
      if (!isObject(input)) return one('tools/list', fail(`/tools/${i}/inputSchema`, 'a JSON Schema object', `${describeType(input)} ${preview(input)}`));
      if (own(input, 'type') !== 'object') {
        return one('tools/list', fail(`/tools/${i}/inputSchema/type`, '"object"', `${preview(own(input, 'type'))} (tool ${preview(name)})`));
      }
    }
    return one('tools/list', pass());
  },
};

export const stdioStdout: AgentCheck = {
  id: 'transport.stdio-stdout',
  scope: 'agent',
  severity: 'MUST',
  live: true,
  title: 'a stdio server writes nothing but JSON-RPC messages on stdout (logs go to stderr)',
  spec: 'MCP 2025-06-18 · Basic › Transports › stdio (the server MUST NOT write anything to stdout that is not a valid MCP message)',
  run(a) {
    if (a.agent.transport !== 'stdio') return one('stdout', skip('not a stdio agent'));
    const junk = a.stdio?.stdoutJunk ?? [];
    if (junk.length === 0) return one('stdout', pass());
    return one('stdout', fail('/stdio/stdoutJunk/0', 'only JSON-RPC messages on stdout', `${junk.length} other line(s), first: ${preview(junk[0])}`));
  },
};

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export const toolNames: AgentCheck = {
  id: 'transport.tool-names',
  scope: 'agent',
  severity: 'SHOULD',
  live: true,
  title: 'tool names follow MCP\'s naming rule (1–128 of `A-Z a-z 0-9 _ - .`)',
  spec: 'MCP 2025-11-25 · Server features › Tools › Tool names (SHOULD be 1–128 chars of A-Z a-z 0-9 _ - .)',
  run(a) {
    const listed = listedTools(a);
    if ('skip' in listed) return one('tools/list', skip(listed.skip));
    const bad: Array<{ i: number; name: string }> = [];
    listed.tools.forEach((tool, i) => {
      const name = own(tool, 'name');
      if (typeof name === 'string' && !TOOL_NAME.test(name)) bad.push({ i, name });
    });
    if (bad.length === 0) return one('tools/list', pass());
    const names = bad.slice(0, 5).map((b) => JSON.stringify(b.name)).join(', ');
    return one('tools/list', fail(`/tools/${bad[0]!.i}/name`, '1–128 characters of A-Z a-z 0-9 _ - .', `${bad.length} name(s): ${names}`));
  },
};

const STREAMABLE_TYPES = ['application/json', 'text/event-stream'];

function mediaType(contentType: unknown): string | null {
  if (typeof contentType !== 'string') return null;
  return contentType.split(';')[0]!.trim().toLowerCase();
}

function carriesRequest(method: unknown): boolean {
  return typeof method === 'string' && !/^[A-Z]+$/.test(method) && !method.startsWith('notifications/');
}

export const httpResponse: AgentCheck = {
  id: 'transport.http-response',
  scope: 'agent',
  severity: 'MUST',
  live: true,
  title: 'streamable HTTP answers with `application/json` or `text/event-stream`, and honours its own `Mcp-Session-Id`',
  spec: 'MCP 2025-06-18 · Basic › Transports › Streamable HTTP (response content types; Session management)',
  run(a) {
    if (a.agent.transport !== 'http') return one('http', skip('not a streamable HTTP agent'));
    const observations = a.http?.observations ?? [];
    if (observations.length === 0) return one('http', skip('no HTTP responses recorded'));
    const initIndex = observations.findIndex((o) => isObject(o) && o.method === 'initialize');
    let session: string | undefined = a.http?.sessionId ?? (initIndex >= 0 ? observations[initIndex]!.sessionId : undefined);
    for (let i = 0; i < observations.length; i++) {
      const o = observations[i]!;
      // Only POSTs that carried a JSON-RPC request owe a JSON / SSE answer: not notifications (202, no
      // body), not the session-closing DELETE or a GET stream the harness records by HTTP verb.
      if (!isObject(o) || !carriesRequest(o.method)) continue;
      const answered = o.status >= 200 && o.status < 300 && o.status !== 202 && o.status !== 204;
      if (answered && !STREAMABLE_TYPES.includes(mediaType(o.contentType) ?? '')) {
        return one('http', fail(`/http/observations/${i}/contentType`, `${STREAMABLE_TYPES.join(' or ')} (${String(o.method)})`, preview(o.contentType ?? undefined)));
      }
      if (i <= initIndex) continue;
      if (o.status === 404 && session !== undefined) {
        return one('http', fail(`/http/observations/${i}/status`, `an answer in session ${preview(session)}`, `404 on ${String(o.method)}: the server no longer knows its own session`));
      }
      if (typeof o.sessionId === 'string') {
        if (session === undefined) session = o.sessionId;
        else if (o.sessionId !== session) {
          return one('http', fail(`/http/observations/${i}/sessionId`, `the session id ${preview(session)} assigned on initialize`, `${preview(o.sessionId)} on ${String(o.method)}`));
        }
      }
    }
    return one('http', pass());
  },
};

export const call: ExchangeCheck = {
  id: 'transport.call',
  scope: 'exchange',
  severity: 'MUST',
  live: true,
  title: 'every tools/call gets a JSON-RPC answer within the call timeout, under the byte cap, connection intact (harness-added id)',
  spec: "Harness-added id (not in RULES.md §2): MCP 2025-06-18 · Basic › Lifecycle › Timeouts, and the harness's call timeout and byte cap",
  run(x) {
    if (x.outcome.kind !== 'transport-error') return pass();
    const f = x.outcome.failure;
    const seen = typeof f.bytesSeen === 'number' ? ` (${f.bytesSeen} bytes read)` : '';
    return fail('/outcome/failure', 'a JSON-RPC result or error within the call timeout and byte cap', `${f.kind}: ${f.message}${seen}`);
  },
};

export const transportAgentChecks: readonly AgentCheck[] = [initialize, toolsList, stdioStdout, toolNames, httpResponse];
