// A loopback streamable-HTTP JSON-RPC server for hostile tests: initialize, notifications and tools/list
// get ordinary answers unless the test's handler takes the message first. Counts sockets (open now and
// at peak) so a test can see how many connections the harness opened.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RpcMessage = {
  jsonrpc?: string;
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
};
/** Return true when the message was answered; false lets the default answer it. */
export type RpcHandler = (m: RpcMessage, res: ServerResponse, req: IncomingMessage) => boolean;

export interface RpcHttp {
  url: string;
  /** Most sockets open at once, over the server's life. */
  peakSockets(): number;
  /** Every POSTed message, in arrival order. */
  received: RpcMessage[];
  close(): Promise<void>;
}

export const json = (res: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};
export const sseEvent = (message: unknown): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
export const result = (id: unknown, structuredContent: Record<string, unknown> = { ok: true }) => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent },
});
export const initializeResult = (m: RpcMessage) => ({
  jsonrpc: '2.0',
  id: m.id,
  result: { protocolVersion: m.params?.['protocolVersion'], capabilities: { tools: {} }, serverInfo: { name: 'rpc-http', version: '1' } },
});
export const TOOLS = [{ name: 'get_adcp_capabilities', inputSchema: { type: 'object' } }];

export async function startRpcHttp(handle: RpcHandler): Promise<RpcHttp> {
  let open = 0;
  let peak = 0;
  const received: RpcMessage[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let m: RpcMessage;
      try {
        m = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcMessage;
      } catch {
        return void res.writeHead(400).end();
      }
      received.push(m);
      if (handle(m, res, req)) return;
      if (m.method === 'initialize') return json(res, initializeResult(m));
      if (m.id === undefined || m.method === undefined) return void res.writeHead(202).end(); // notifications and our answers
      if (m.method === 'tools/list') return json(res, { jsonrpc: '2.0', id: m.id, result: { tools: TOOLS } });
      return json(res, result(m.id));
    });
  });
  server.on('connection', (socket) => {
    peak = Math.max(peak, ++open);
    socket.once('close', () => open--);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    peakSockets: () => peak,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
