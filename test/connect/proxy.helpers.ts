// A loopback HTTP proxy in front of a seller, for the tests that need the wire to behave in one precise
// way: drop a connection on its n-th request, unanswered, hold an answer back for a while, or send every
// answer content-coded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import type { HttpAgentConfig, Probe } from '../../harness/config/types.ts';

/** The one probe the proxied sessions make. */
export const PRODUCTS: Probe = { tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'sports' }, intent: 'valid' };

/** An HTTP agent at `url` (the proxy's) with generous timeouts and the one probe. */
export const proxiedAgent = (name: string, url: string): HttpAgentConfig => ({
  name,
  transport: 'http',
  url,
  headers: {},
  timeouts: { connectMs: 15_000, callMs: 10_000, agentMs: 60_000 },
  production: false,
  sandbox: false,
  maxBytes: DEFAULT_MAX_BYTES,
  secrets: [],
  probes: [PRODUCTS],
});

/** Content codings the proxy applies; `deflate-raw` is sent as `deflate` without zlib's wrapper, as many servers do. */
export type ProxyCoding = 'gzip' | 'x-gzip' | 'deflate' | 'deflate-raw' | 'br';
const ENCODERS: Record<ProxyCoding, [string, (b: Buffer) => Buffer]> = {
  gzip: ['gzip', gzipSync],
  'x-gzip': ['x-gzip', gzipSync],
  deflate: ['deflate', deflateSync],
  'deflate-raw': ['deflate', deflateRawSync],
  br: ['br', brotliCompressSync],
};

export interface ProxyRules {
  /** Drop the connection, unanswered, on its `dropAt`-th request (1-based). */
  dropAt?: number;
  /** Hold the answer to each request whose body names this JSON-RPC method for `ms` before sending it. */
  hold?: { method: string; ms: number };
  /** Every answer with a body coded with these, applied in order (Content-Encoding lists them so). */
  encode?: ProxyCoding[];
}

export interface SellerProxy {
  url: string;
  /** Connections dropped, answers held, answers coded so far. */
  dropped(): number;
  held(): number;
  encoded(): number;
  /** The request headers the proxy was sent (the last request's). */
  lastHeaders(): IncomingMessage['headers'];
  close(): Promise<void>;
}

export async function sellerProxy(target: string, rules: ProxyRules = {}): Promise<SellerProxy> {
  const requestsOn = new WeakMap<object, number>();
  let dropped = 0;
  let held = 0;
  let encoded = 0;
  let lastHeaders: IncomingMessage['headers'] = {};
  const forward = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    lastHeaders = req.headers;
    const n = (requestsOn.get(req.socket) ?? 0) + 1;
    requestsOn.set(req.socket, n);
    if (n === rules.dropAt) {
      dropped++;
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
    const r = await fetch(target, { method: req.method ?? 'POST', headers, ...(body.length ? { body } : {}) });
    let answer: Buffer = Buffer.from(await r.arrayBuffer());
    if (rules.hold && body.includes(`"method":"${rules.hold.method}"`)) {
      held++;
      await new Promise((resolve) => setTimeout(resolve, rules.hold!.ms));
    }
    const out: Record<string, string> = {};
    for (const k of ['content-type', 'mcp-session-id']) {
      const v = r.headers.get(k);
      if (v !== null) out[k] = v;
    }
    if (rules.encode?.length && answer.length) {
      for (const coding of rules.encode) answer = ENCODERS[coding][1](answer);
      out['content-encoding'] = rules.encode.map((c) => ENCODERS[c][0]).join(', ');
      encoded++;
    }
    res.writeHead(r.status, out).end(answer);
  };
  const server = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    dropped: () => dropped,
    held: () => held,
    encoded: () => encoded,
    lastHeaders: () => lastHeaders,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
