// A stdio client transport for the official SDK `Client`. The SDK's StdioClientTransport does not fit a
// conformance harness: it hides the exit code, turns a non-JSON stdout line into a bare onerror (the
// line is lost), buffers without regard for our byte cap and kills the server when a line is too long,
// and spawns with stderr inherited. This one keeps the SDK's framing (one JSON-RPC message per line)
// and its safe default environment, and adds: raw tap of every line, junk-line capture, a per-line
// byte cap that cuts the line (not the session), a bounded stderr tail, and a reaping close().
import { type ChildProcess, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { redact, usableSecrets } from '../config/redact.ts';

export const STDERR_TAIL_BYTES = 64 * 1024;
export const MAX_JUNK_LINES = 50;
export const MAX_JUNK_LINE_CHARS = 300;
/** How long after the server process exits its stdout may stay open (held by a child) before we stop waiting. */
export const EXIT_CLOSE_WAIT_MS = 200;

export interface StdioTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  maxBytes: number;
  /**
   * Values to redact from junk lines and the stderr tail BEFORE they are cut: a secret split by the
   * cut would otherwise survive the later redaction in part.
   */
  secrets?: readonly string[];
  /** Every parsed stdout line (raw JSON), before any schema sees it, with its UTF-8 size. */
  onRaw(value: unknown, bytes: number): void;
  /** A stdout line passed the byte cap; the rest of the line is discarded. */
  onOversize(bytesSeen: number): void;
  /** The process exited on its own (a crash, or an exit mid-run). Called before onclose. */
  onExit?(exit: { code: number | null; signal: string | null }): void;
  /** How long close() waits at each step (stdin closed → SIGTERM → SIGKILL). */
  graceMs?: number;
}

export class HarnessStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly stdoutJunk: string[] = [];
  /** Set when the process exited on its own (not through close()). */
  exit?: { code: number | null; signal: string | null };

  private child?: ChildProcess;
  private closing = false;
  private closed?: Promise<void>;
  private stderrTail = '';
  /** Set once the tail was cut at its start. */
  private stderrCut = false;
  private readonly stderrDecoder = new StringDecoder('utf8');
  private lineChunks: Buffer[] = [];
  private lineBytes = 0;
  private discarding = false;

  constructor(private readonly opts: StdioTransportOptions) {}

  /** The stderr tail, redacted; once the tail was cut, the characters a cut secret could occupy are dropped. */
  get stderr(): string {
    const secrets = usableSecrets(this.opts.secrets ?? []);
    // A secret that began before the cut point ends within the first (longest - 1) characters.
    const tail = this.stderrCut ? this.stderrTail.slice(Math.max(0, (secrets[0]?.length ?? 1) - 1)) : this.stderrTail;
    return redact(tail, secrets);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('already started'));
    return new Promise((resolve, reject) => {
      const child = spawn(this.opts.command, this.opts.args, {
        env: { ...getDefaultEnvironment(), ...this.opts.env },
        cwd: this.opts.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // Its own process group, so close() reaps whatever the server itself spawned (npx → node …).
        detached: true,
      });
      this.child = child;
      let spawned = false;
      this.closed = new Promise((done) => child.once('close', () => done()));
      child.once('spawn', () => {
        spawned = true;
        resolve();
      });
      child.once('error', (err) => {
        if (!spawned) reject(err);
        else this.onerror?.(err);
      });
      let ended = false;
      const end = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (ended) return;
        ended = true;
        this.flushLine();
        if (!this.closing) {
          this.exit = { code, signal };
          this.opts.onExit?.(this.exit);
        }
        this.onclose?.();
      };
      child.once('close', end);
      // 'close' waits for stdout to end, and a process the server forked can hold stdout open long after
      // the server died: a short wait, then the leftover group is killed and the crash recorded as such.
      child.once('exit', (code, signal) => {
        setTimeout(() => {
          if (ended) return;
          this.kill('SIGKILL');
          end(code, signal);
        }, EXIT_CLOSE_WAIT_MS).unref();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
      child.stderr?.on('data', (chunk: Buffer) => this.onStderr(chunk));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) return Promise.reject(new Error('Not connected: the server process has closed its stdin'));
    return new Promise((resolve, reject) => {
      stdin.write(JSON.stringify(message) + '\n', (err) => (err ? reject(err) : resolve()));
    });
  }

  /** End stdin, then SIGTERM, then SIGKILL the process group; resolves once the process is reaped. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.closing = true; // an exit from here on is ours, not a crash
    const grace = this.opts.graceMs ?? 500;
    const reaped = () => child.exitCode !== null || child.signalCode !== null;
    const wait = (ms: number) =>
      Promise.race([this.closed, new Promise<void>((r) => setTimeout(r, ms).unref())]);
    if (!reaped()) {
      child.stdin?.end();
      await wait(grace);
    }
    if (!reaped()) {
      this.kill('SIGTERM');
      await wait(grace);
    }
    if (!reaped()) {
      this.kill('SIGKILL');
      await wait(grace * 2);
    } else {
      // The leader is gone; make sure nothing it started outlives it.
      this.kill('SIGKILL');
    }
    child.stdout?.destroy();
    child.stderr?.destroy();
  }

  private kill(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      try {
        this.child?.kill(signal);
      } catch {
        /* already gone */
      }
    }
  }

  private onStderr(chunk: Buffer): void {
    this.stderrTail += this.stderrDecoder.write(chunk);
    if (this.stderrTail.length > STDERR_TAIL_BYTES) {
      this.stderrTail = this.stderrTail.slice(-STDERR_TAIL_BYTES);
      this.stderrCut = true;
    }
  }

  private onStdout(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.append(chunk.subarray(start, nl));
      this.flushLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  private append(part: Buffer): void {
    if (this.discarding || part.length === 0) return;
    this.lineBytes += part.length;
    if (this.lineBytes > this.opts.maxBytes) {
      // Cut: drop what we hold and ignore the rest of this line; the session goes on.
      this.discarding = true;
      this.lineChunks = [];
      this.opts.onOversize(this.lineBytes);
      return;
    }
    this.lineChunks.push(part);
  }

  private flushLine(): void {
    const wasCut = this.discarding;
    const bytes = this.lineBytes;
    const buf = Buffer.concat(this.lineChunks);
    this.lineChunks = [];
    this.lineBytes = 0;
    this.discarding = false;
    if (wasCut) return;
    let text = buf.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.junk(text);
      return;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      this.junk(text);
      return;
    }
    // Any JSON object goes to the tap first: an answer with our id but a wrong `jsonrpc` is a malformed
    // response (a protocol failure now), not a line to ignore until the call times out.
    this.opts.onRaw(value, bytes);
    if ((value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      this.junk(text);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) this.onmessage?.(parsed.data);
    else this.onerror?.(new Error(`malformed JSON-RPC message on stdout: ${parsed.error.issues[0]?.message ?? 'invalid'}`));
  }

  private junk(line: string): void {
    if (this.stdoutJunk.length >= MAX_JUNK_LINES) return;
    const clean = redact(line, this.opts.secrets ?? []); // before the cut, so no part of a secret survives
    this.stdoutJunk.push(clean.length > MAX_JUNK_LINE_CHARS ? `${clean.slice(0, MAX_JUNK_LINE_CHARS)}…` : clean);
  }
}
