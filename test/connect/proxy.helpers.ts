// A loopback HTTP proxy in front of a seller, for the tests that need the wire to misbehave in one
// precise way: drop a connection on its n-th request, unanswered, or hold an answer back for a while.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyRules {
  /** Drop the connection, unanswered, on its `dropAt`-th request (1-based). */
  dropAt?: number;
  /** Hold the answer to each request whose body names this JSON-RPC method for `ms` before sending it. */
  hold?: { method: string; ms: number };
}

export interface SellerProxy {
  url: string;
  /** Connections dropped, answers held so far. */
  dropped(): number;
  held(): number;
  close(): Promise<void>;
}

export async function sellerProxy(target: string, rules: ProxyRules = {}): Promise<SellerProxy> {
  const requestsOn = new WeakMap<object, number>();
  let dropped = 0;
  let held = 0;
  const forward = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
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
    const answer = Buffer.from(await r.arrayBuffer());
    if (rules.hold && body.includes(`"method":"${rules.hold.method}"`)) {
      held++;
      await new Promise((resolve) => setTimeout(resolve, rules.hold!.ms));
    }
    const out: Record<string, string> = {};
    for (const k of ['content-type', 'mcp-session-id']) {
      const v = r.headers.get(k);
      if (v !== null) out[k] = v;
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
