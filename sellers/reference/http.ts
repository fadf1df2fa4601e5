// The seller over streamable HTTP on 127.0.0.1: one SDK transport + Server per MCP session, JSON or
// SSE response mode. The two HTTP-only faults bend response headers here.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { CALL_TARGET } from '../faults/_kit.ts';
import { isPlainObject } from './json.ts';
import type { SellerConfig } from './options.ts';
import { loadInputValidators } from './validate-input.ts';
import { createSellerServer, streamedAnswerFor, transportFault } from './server.ts';
import { writePieces } from './streamed-answer.ts';
import { SellerState } from './state.ts';

/** Request bodies are small JSON-RPC messages; anything bigger is refused before parsing. */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** Open MCP sessions kept at once; the oldest is closed past this. */
const MAX_SESSIONS = 128;

interface Session {
  transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Why a request may not be served under `--token` (`ok` when it may). */
type AuthDecision = 'ok' | 'missing' | 'invalid';

/**
 * The discovery tasks anyone may call (AdCP authentication.mdx › Public Operations): with initialize,
 * tools/list and every other non-tool request, they are served without credentials.
 */
export const PUBLIC_TASKS: readonly string[] = ['get_adcp_capabilities', 'list_creative_formats', 'get_products'];

/** How the auth faults bend the check (none: the conformant seller). */
interface AuthFaults {
  /** auth-optional: a request that brings no credentials at all is let through. */
  optional: boolean;
  /** auth-invalid-served: any bearer token is accepted (only its presence is checked). */
  anyToken: boolean;
  /** auth-discovery-protected: every request needs the token, discovery and initialize included. */
  discoveryProtected: boolean;
}

/**
 * Under `--token`: a request without Authorization is served when it is public (not a tools/call, or a
 * call of a public task), else refused as `missing`; a request with a wrong token is refused as `invalid`,
 * whatever it asks for (a presented credential is verified, AUTH_INVALID).
 */
function authorize(req: IncomingMessage, config: SellerConfig, tool: unknown, faults: AuthFaults): AuthDecision {
  if (config.token === undefined) return 'ok';
  const sent = req.headers['authorization'];
  if (sent === undefined) {
    if (faults.optional) return 'ok';
    const isPublic = tool === undefined || (typeof tool === 'string' && PUBLIC_TASKS.includes(tool));
    return isPublic && !faults.discoveryProtected ? 'ok' : 'missing';
  }
  if (faults.anyToken) return /^Bearer \S+$/.test(sent) ? 'ok' : 'invalid';
  const want = Buffer.from(`Bearer ${config.token}`);
  const got = Buffer.from(sent);
  return got.length === want.length && timingSafeEqual(got, want) ? 'ok' : 'invalid';
}

/**
 * 401 with the challenge RFC 6750 §3 asks for (MCP authorization: a 401 MUST carry WWW-Authenticate), and
 * a JSON-RPC error whose data carries the AdCP error (AUTH_MISSING or AUTH_INVALID).
 */
function unauthorized(res: ServerResponse, why: Exclude<AuthDecision, 'ok'>): void {
  const realm = 'Bearer realm="adcp-conformance reference seller"';
  const adcpError =
    why === 'missing'
      ? { code: 'AUTH_MISSING', message: 'Authentication required: send Authorization: Bearer <token>', recovery: 'correctable' }
      : { code: 'AUTH_INVALID', message: 'The bearer token is not valid', recovery: 'terminal' };
  res.writeHead(401, {
    'content-type': 'application/json',
    'www-authenticate': why === 'missing' ? realm : `${realm}, error="invalid_token"`,
  });
  res.end(
    // -32028 is reserved for AUTH_MISSING (transport-errors.mdx); AUTH_INVALID has no reserved JSON-RPC code.
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: why === 'missing' ? -32028 : -32000, message: adcpError.message, data: { adcp_error: adcpError } },
      id: null,
    }),
  );
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_REQUEST_BYTES) return 'too-large';
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/**
 * Lets `edit` change response headers however the SDK sets them (setHeader, or writeHead with a
 * header object: what @hono/node-server does).
 */
function rewriteHeaders(res: ServerResponse, edit: (name: string, value: unknown) => unknown): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) => setHeader(name, edit(name.toLowerCase(), value) as string);
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const i = typeof rest[0] === 'string' ? 1 : 0;
    const headers = rest[i];
    if (isPlainObject(headers)) {
      const edited: OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(headers)) edited[k] = edit(k.toLowerCase(), v) as string;
      rest[i] = edited;
    }
    for (const name of res.getHeaderNames()) setHeader(name, edit(name, res.getHeader(name)) as string);
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;
}

/** Writes a streamed JSON-RPC answer as the SDK would frame it (JSON body, or one SSE event). */
async function streamHttpAnswer(
  res: ServerResponse,
  pieces: Iterable<string>,
  mode: 'json' | 'sse',
  sessionId: string | undefined,
): Promise<void> {
  res.writeHead(200, {
    'content-type': mode === 'json' ? 'application/json' : 'text/event-stream',
    ...(mode === 'sse' ? { 'cache-control': 'no-cache' } : {}),
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
  });
  const framed = function* (): Generator<string> {
    if (mode === 'sse') yield 'event: message\ndata: ';
    yield* pieces;
    if (mode === 'sse') yield '\n\n';
  };
  await writePieces(res, framed());
  res.end();
}

export interface HttpSeller {
  port: number;
  close(): Promise<void>;
}

export async function startHttp(config: SellerConfig): Promise<HttpSeller> {
  await loadInputValidators();
  const state = new SellerState();
  const sessions = new Map<string, Session>();
  const badContentType = transportFault(config, 'http-content-type');
  const rotateSessionId = transportFault(config, 'http-session-id');
  const authFaults: AuthFaults = {
    optional: transportFault(config, 'http-auth-optional'),
    anyToken: transportFault(config, 'http-auth-any-token'),
    discoveryProtected: transportFault(config, 'http-auth-discovery-protected'),
  };
  // http-session-id-change: ids the server handed out after initialize → the real session id.
  const aliases = new Map<string, string>();
  let rotation = 0;

  const openSession = async (): Promise<StreamableHTTPServerTransport> => {
    const server = createSellerServer(config, state);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: config.responseMode === 'json',
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, close: () => server.close() });
        // Clients that never DELETE their session must not grow a long-running seller without bound.
        while (sessions.size > MAX_SESSIONS) {
          const [oldest, session] = sessions.entries().next().value as [string, Session];
          sessions.delete(oldest);
          void session.close();
        }
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const sentId = req.headers['mcp-session-id'];
    const sessionId = typeof sentId === 'string' ? (aliases.get(sentId) ?? sentId) : undefined;
    if (sessionId !== undefined && sessionId !== sentId) {
      // Hand the SDK the real id (it reads rawHeaders through @hono/node-server).
      req.headers['mcp-session-id'] = sessionId;
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        if (req.rawHeaders[i]!.toLowerCase() === 'mcp-session-id') req.rawHeaders[i + 1] = sessionId;
      }
    }

    let body: unknown;
    if (req.method === 'POST') {
      const raw = await readBody(req);
      if (raw === 'too-large') return jsonRpcError(res, 413, -32600, 'Request body too large');
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return jsonRpcError(res, 400, -32700, 'Parse error');
      }
    }
    // Under --token: protected tool calls need the bearer token; discovery, initialize and tools/list do not.
    // (A batch is never public: it may carry any call.)
    const calledTool = Array.isArray(body)
      ? null
      : isPlainObject(body) && body['method'] === 'tools/call'
        ? isPlainObject(body['params'])
          ? body['params']['name']
          : null
        : undefined;
    const auth = authorize(req, config, calledTool, authFaults);
    if (auth !== 'ok') return unauthorized(res, auth);

    let transport = sessionId !== undefined ? sessions.get(sessionId)?.transport : undefined;
    if (!transport) {
      if (sessionId !== undefined) return jsonRpcError(res, 404, -32001, 'Session not found');
      if (req.method !== 'POST' || !isInitializeRequest(body)) {
        return jsonRpcError(res, 400, -32000, 'Bad Request: no valid session; send initialize first');
      }
      transport = await openSession();
    }

    const method = isPlainObject(body) && typeof body['method'] === 'string' ? body['method'] : undefined;
    const params = isPlainObject(body) ? body['params'] : undefined;
    const tool = method === 'tools/call' && isPlainObject(params) ? params['name'] : undefined;
    if (badContentType && tool === CALL_TARGET) {
      rewriteHeaders(res, (name, value) => (name === 'content-type' ? 'text/plain; charset=utf-8' : value));
    }
    if (rotateSessionId && method !== 'initialize') {
      rewriteHeaders(res, (name, value) => {
        if (name !== 'mcp-session-id' || typeof value !== 'string') return value;
        const fresh = `${aliases.get(value) ?? value}.r${++rotation}`;
        aliases.set(fresh, aliases.get(value) ?? value);
        return fresh;
      });
    }
    if (tool !== undefined && isPlainObject(body) && (typeof body['id'] === 'string' || typeof body['id'] === 'number')) {
      const pieces = streamedAnswerFor(config, state, tool, isPlainObject(params) ? params['arguments'] : undefined, body['id']);
      if (pieces) return streamHttpAnswer(res, pieces, config.responseMode, transport.sessionId);
    }
    await transport.handleRequest(req, res, body);
  };

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      process.stderr.write(`reference-seller: HTTP handler failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, '127.0.0.1', () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;

  return {
    port,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((s) => s.close()));
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
