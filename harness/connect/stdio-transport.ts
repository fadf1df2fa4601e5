// A stdio client transport for the official SDK `Client`. The SDK's StdioClientTransport does not fit a
// conformance harness: it hides the exit code, turns a non-JSON stdout line into a bare onerror (the
// line is lost), buffers without regard for our byte cap and kills the server when a line is too long,
// and spawns with stderr inherited. This one keeps the SDK's framing (one JSON-RPC message per line)
// and its safe default environment, and adds: raw tap of every line, junk-line capture, a per-line
// byte cap that cuts the line (not the session), a bounded stderr tail and per-call stderr windows, a
// bound on what may wait in the server's stdin, readable start-up failures, and a reaping close().
import { sellerTimeout } from './seller-clock.ts';
import type { ChildProcess } from 'node:child_process';
import { isUtf8 } from 'node:buffer';
import { statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { redact, usableSecrets } from '../config/redact.ts';
import { ByteTail, charStart } from './byte-tail.ts';
import { adoptEarly, spawnServer } from './stdio-spawn.ts';

export const STDERR_TAIL_BYTES = 64 * 1024;
export const MAX_JUNK_LINES = 50;
export const MAX_JUNK_LINE_CHARS = 300;
/** How long after the server process exits its stdout may stay open (held by a child) before we stop waiting. */
export const EXIT_CLOSE_WAIT_MS = 200;
/** Our messages waiting in a server's stdin; past it the server is not reading, and is killed. */
export const MAX_PENDING_STDIN_BYTES = 4 * 1024 * 1024;
/** Characters of stderr kept per call window. */
export const STDERR_DURING_CHARS = 4096;
/** Bytes of one stderr chunk decoded for the call windows: ≥ 3 × STDERR_DURING_CHARS + 3 fill any window. */
const WINDOW_BYTES = 4 * STDERR_DURING_CHARS;

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
  /**
   * Every parsed stdout message (a JSON object, or an array of objects: a batch), before any schema or
   * the SDK sees it, with its UTF-8 size. Returns whether the SDK may see it.
   */
  onRaw(value: unknown, bytes: number, text: string): boolean;
  /** A stdout line whose bytes are not UTF-8 (it is still read, with U+FFFD for the bad bytes). */
  onInvalidUtf8?(): void;
  /** A stdout line passed the byte cap; the rest of the line is discarded. */
  onOversize(bytesSeen: number): void;
  /** The process exited on its own (a crash, or an exit mid-run). Called before onclose. */
  onExit?(exit: { code: number | null; signal: string | null }): void;
  /** The server stopped reading its stdin (MAX_PENDING_STDIN_BYTES pending); its process group is being killed. */
  onStdinStalled?(pendingBytes: number): void;
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
  /** Whether the process was spawned at all (false: not found, not executable, bad cwd …). */
  spawned = false;
  /** Set when the harness killed the server for a reason of its own (it stopped reading its stdin). */
  killedBecause?: string;

  private child?: ChildProcess;
  private closing = false;
  private closed?: Promise<void>;
  /** Enough of stderr's last bytes for its last STDERR_TAIL_BYTES characters (decoded when read). */
  private readonly stderrBytes = new ByteTail(3 * STDERR_TAIL_BYTES);
  /** Decodes stderr for the open call windows (none while no window is open). */
  private windowDecoder: StringDecoder | undefined;
  private lineChunks: Buffer[] = [];
  private lineBytes = 0;
  private discarding = false;
  /** Open per-call stderr windows (see stderrWindow). */
  private readonly windows = new Set<{ text: string; cut: boolean }>();
  /** Resolves once the end of the process (exit or close) was handled. */
  private ended?: Promise<void>;

  constructor(private readonly opts: StdioTransportOptions) {}

  /** The longest secret's length minus one: how many characters a secret cut at a boundary can leave. */
  private secretReach(): number {
    return Math.max(0, (usableSecrets(this.opts.secrets ?? [])[0]?.length ?? 1) - 1);
  }

  /** The stderr tail, redacted; once the tail was cut, the characters a cut secret could occupy are dropped. */
  get stderr(): string {
    const secrets = usableSecrets(this.opts.secrets ?? []);
    // A secret that began before the cut point ends within the first (longest - 1) characters.
    const { text, cut } = this.stderrBytes.text(STDERR_TAIL_BYTES);
    const tail = cut ? text.slice(this.secretReach()) : text;
    return redact(tail, secrets);
  }

  /**
   * Collect what the server writes on stderr from now on; the returned function stops collecting and
   * gives it (bounded, redacted), or undefined when nothing but whitespace came.
   */
  stderrWindow(): () => string | undefined {
    const window = { text: '', cut: false };
    this.windows.add(window);
    return () => {
      this.windows.delete(window);
      // Cut, then drop the characters a secret crossing the cut could occupy, then redact the rest.
      const kept = window.cut ? window.text.slice(0, Math.max(0, STDERR_DURING_CHARS - this.secretReach())) : window.text;
      const text = redact(kept, this.opts.secrets ?? []);
      if (text.trim() === '') return undefined;
      return window.cut ? `${text}…` : text;
    };
  }

  /**
   * Resolves when the process's end is recorded (`exit` set), or after `ms` on the seller's clock: an exit
   * that happened while the harness was stalled is read before the wait gives up (a crash at start-up is
   * told as the crash). The end, not the 'exit' event: `exit` is set once the pipes close (or
   * EXIT_CLOSE_WAIT_MS after the exit), and on a loaded machine the exit can come first — a crash at
   * start-up was then told as the EPIPE of our write.
   */
  waitExit(ms: number): Promise<void> {
    const ended = this.ended ?? Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = sellerTimeout(ms, resolve);
      void ended.then(() => {
        timer.cancel();
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('already started'));
    return new Promise((resolve, reject) => {
      // A process `probe` spawned early (stdio-spawn.ts) is adopted; otherwise spawned now, the same way.
      const early = adoptEarly(this.opts);
      const child = early?.child ?? spawnServer(this.opts);
      this.child = child;
      const hasExited = (): boolean => child.exitCode !== null || child.signalCode !== null;
      let markClosed = (): void => {};
      this.closed = new Promise((done) => (markClosed = done));
      const started = (): void => {
        this.spawned = true;
        resolve();
      };
      if (early) early.spawned.then(started, (err: Error) => reject(this.startError(err)));
      else child.once('spawn', started);
      child.once('error', (err) => {
        if (!this.spawned && !early) reject(this.startError(err));
        else if (this.spawned) this.onerror?.(err);
      });
      let ended = false;
      let markEnded = (): void => {};
      this.ended = new Promise((done) => (markEnded = done));
      const end = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (ended) return;
        ended = true;
        // A line still being cut stays cut: output the pipe still holds after the end (the exit timer below
        // fires before a slow 50 MiB line has drained) must not turn its tail into a junk line.
        if (!this.discarding) this.flushLine();
        if (!this.closing) {
          this.exit = { code, signal };
          this.opts.onExit?.(this.exit);
        }
        markEnded();
        this.onclose?.();
      };
      const onClose = (code: number | null, signal: NodeJS.Signals | null): void => {
        markClosed();
        end(code, signal);
      };
      // 'close' waits for stdout to end, and a process the server forked can hold stdout open long after
      // the server died: a short wait, then the leftover group is killed and the crash recorded as such.
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        setTimeout(() => {
          if (ended) return;
          this.kill('SIGKILL');
          end(code, signal);
        }, EXIT_CLOSE_WAIT_MS).unref();
      };
      // An early process may have exited before it was adopted: its 'exit' event is gone, its status is not.
      if (hasExited()) onExit(child.exitCode, child.signalCode);
      else child.once('exit', onExit);
      child.stdin?.on('error', (err) => this.onerror?.(err));
      const output = { stdout: (chunk: Buffer) => this.onStdout(chunk), stderr: (chunk: Buffer) => this.onStderr(chunk), close: onClose };
      if (early) {
        early.adopt(output); // what it wrote (and a 'close') before now is handed over first
      } else {
        child.once('close', onClose);
        child.stdout?.on('data', output.stdout);
        child.stderr?.on('data', output.stderr);
      }
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.killedBecause) return Promise.reject(new Error(`Not connected: the harness killed the server (${this.killedBecause})`));
    if (!stdin || stdin.destroyed || !stdin.writable) {
      const gone = new Error('Not connected: the server process has closed its stdin');
      // A process that exited before anything was written to it (one spawned early, stdio-spawn.ts): its
      // exit (code, stderr) is reported first, as the call's failure, then the write fails.
      const child = this.child;
      if (child && (child.exitCode !== null || child.signalCode !== null) && this.ended) return this.ended.then(() => Promise.reject(gone));
      return Promise.reject(gone);
    }
    const line = JSON.stringify(message) + '\n';
    // A server that stops reading its stdin (while, say, flooding us with requests to answer) would
    // otherwise make this buffer grow without bound.
    const pending = stdin.writableLength + Buffer.byteLength(line);
    if (pending > MAX_PENDING_STDIN_BYTES) {
      this.stalled(pending);
      return Promise.reject(new Error(`the server stopped reading its stdin (${pending} bytes pending)`));
    }
    return new Promise((resolve, reject) => {
      stdin.write(line, (err) => (err ? reject(err) : resolve()));
    });
  }

  private stalled(pending: number): void {
    if (this.killedBecause) return;
    this.killedBecause = `it stopped reading its stdin: more than ${MAX_PENDING_STDIN_BYTES} bytes of our messages were pending`;
    this.opts.onStdinStalled?.(pending);
    this.kill('SIGKILL');
    this.child?.stdin?.destroy();
  }

  /** A spawn failure in words (the command line may carry secrets: the caller redacts). */
  private startError(err: Error): Error {
    const code = (err as NodeJS.ErrnoException).code;
    const { command, cwd } = this.opts;
    let why: string;
    if (code === 'ENOENT' && cwd !== undefined && !isDirectory(cwd)) why = `its working directory ${cwd} does not exist`;
    else if (code === 'ENOENT') why = `the command ${command} was not found`;
    else if (code === 'EACCES') why = `the command ${command} is not executable (permission denied)`;
    else why = err.message;
    // The code rides along: the failure classifier prefixes it ("ENOENT: the server could not be started: …").
    return Object.assign(new Error(`the server could not be started: ${why}`), { code });
  }

  /** End stdin, then SIGTERM, then SIGKILL the process group; resolves once the process is reaped. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.closing = true; // an exit from here on is ours, not a crash
    const grace = this.opts.graceMs ?? 500;
    const reaped = () => child.exitCode !== null || child.signalCode !== null;
    const wait = (ms: number) => Promise.race([this.closed, new Promise<void>((r) => setTimeout(r, ms).unref())]);
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
    this.stderrBytes.push(chunk);
    let open = false;
    for (const w of this.windows) open ||= !w.cut;
    if (!open) {
      // No window to fill: the next one decodes afresh (from a character's start: it collects from now on).
      this.windowDecoder = undefined;
      return;
    }
    let data = chunk;
    if (!this.windowDecoder) {
      this.windowDecoder = new StringDecoder('utf8');
      data = data.subarray(charStart(data));
    }
    // WINDOW_BYTES decode to more than STDERR_DURING_CHARS units: a longer chunk fills every open window.
    const whole = data.length <= WINDOW_BYTES;
    const text = this.windowDecoder.write(whole ? data : data.subarray(0, WINDOW_BYTES));
    if (!whole) this.windowDecoder = undefined;
    for (const w of this.windows) {
      if (w.cut) continue;
      w.text += text;
      if (w.text.length > STDERR_DURING_CHARS) {
        w.text = w.text.slice(0, STDERR_DURING_CHARS);
        w.cut = true;
      }
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
    if (!isUtf8(buf)) this.opts.onInvalidUtf8?.();
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
    if (isBatch(value)) {
      this.opts.onRaw(value, bytes, text); // recorded as a protocol violation, never handed to the SDK
      return;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      this.junk(text);
      return;
    }
    // Any JSON object goes to the tap first: an answer with our id but a wrong `jsonrpc` is a malformed
    // response (a protocol failure now), not a line to ignore until the call times out.
    const admitted = this.opts.onRaw(value, bytes, text);
    if ((value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      this.junk(text);
      return;
    }
    if (!admitted) return;
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

/** A JSON array of JSON-RPC messages (a batch), as opposed to a log line that happens to be an array. */
function isBatch(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((m) => m !== null && typeof m === 'object' && (m as { jsonrpc?: unknown }).jsonrpc === '2.0')
  );
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
