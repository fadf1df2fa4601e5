// Test helpers below the SDK client: raw JSON-RPC over a seller's stdio pipes, and raw HTTP requests,
// for faults a client library would refuse to show (bad initialize, stdout junk, headers, crashes).
import { spawn, type ChildProcess } from 'node:child_process';
import { startHttpSeller, stdioSellerCommand, type SellerOptions } from '../../sellers/launch.ts';

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-test', version: '0' } },
};
export const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

export const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A seller process spoken to line by line on stdin/stdout. */
export class RawStdio {
  readonly child: ChildProcess;
  private buffer = '';
  private readonly lines: string[] = [];
  private waiting: Array<() => void> = [];
  readonly exited: Promise<{ code: number | null; signal: string | null }>;

  constructor(opts: SellerOptions) {
    const { command, args } = stdioSellerCommand(opts);
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => {
      this.buffer += chunk;
      let i: number;
      while ((i = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, i));
        this.buffer = this.buffer.slice(i + 1);
      }
      this.wake();
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.wake();
        resolve({ code, signal });
      }),
    );
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w();
  }

  send(message: unknown): void {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  /** The next stdout line, or undefined once the process has exited with nothing left. */
  async nextLine(): Promise<string | undefined> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) return line;
      if (this.child.exitCode !== null || this.child.signalCode !== null) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Lines up to and including the JSON-RPC answer with `id`. */
  async until(id: number): Promise<string[]> {
    const seen: string[] = [];
    for (;;) {
      const line = await this.nextLine();
      if (line === undefined) return seen;
      seen.push(line);
      try {
        const msg = JSON.parse(line) as { id?: unknown };
        if (msg.id === id) return seen;
      } catch {
        /* not JSON: keep reading */
      }
    }
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}

export interface RawHttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** An HTTP seller plus a minimal streamable-HTTP client that shows every header. */
export class RawHttp {
  sessionId: string | undefined;
  private constructor(
    readonly url: string,
    readonly close: () => Promise<void>,
  ) {}

  static async start(opts: SellerOptions): Promise<RawHttp> {
    const seller = await startHttpSeller(opts);
    return new RawHttp(seller.url, seller.close);
  }

  async post(message: unknown, opts: { signal?: AbortSignal } = {}): Promise<Response> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    return fetch(this.url, { method: 'POST', headers, body: JSON.stringify(message), ...(opts.signal ? { signal: opts.signal } : {}) });
  }

  async send(message: unknown): Promise<RawHttpAnswer> {
    const res = await this.post(message);
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** initialize + notifications/initialized; keeps the session id. */
  async handshake(): Promise<RawHttpAnswer> {
    const init = await this.send(INITIALIZE);
    this.sessionId = init.headers.get('mcp-session-id') ?? undefined;
    await this.send(INITIALIZED);
    return init;
  }
}

/** The JSON-RPC message in a JSON or single-event SSE body. */
export function messageOf(text: string): Record<string, unknown> {
  const data =
    text.startsWith('event:') || text.startsWith('data:') || text.startsWith('id:')
      ? text
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('')
      : text;
  return JSON.parse(data) as Record<string, unknown>;
}
