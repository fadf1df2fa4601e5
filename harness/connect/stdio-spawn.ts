// Spawning a stdio server, and spawning it early. A light module (node:child_process only): `probe`
// imports it before the MCP SDK, zod and the checks load, and starts the seller's process right after
// reading its arguments, so the seller's own start-up (often the longest part of a one-call probe)
// overlaps ours. The transport (stdio-transport.ts) then adopts that process instead of spawning one.
import { type ChildProcess, spawn } from 'node:child_process';

export interface StdioSpawnSpec {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
}

/**
 * The variables a stdio server inherits from us, as the MCP SDK's `getDefaultEnvironment()` picks them
 * (a test keeps the two equal): the rest of our environment, secrets included, never reaches a seller.
 */
const INHERITED_ENV_VARS =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

export function inheritedEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV_VARS) {
    const value = process.env[key];
    if (value === undefined || value.startsWith('()')) continue; // a shell function: never passed on
    env[key] = value;
  }
  return env;
}

/** Start the server: its own process group (close() reaps whatever it spawned itself: npx → node …). */
export function spawnServer(spec: StdioSpawnSpec): ChildProcess {
  return spawn(spec.command, [...spec.args], {
    env: { ...inheritedEnvironment(), ...spec.env },
    cwd: spec.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    detached: true,
  });
}

/** Where an adopted early process's output and end go. */
export interface EarlyOutput {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** The child's 'close' (its stdio ended and it exited). */
  close(code: number | null, signal: NodeJS.Signals | null): void;
}

/**
 * A process spawned ahead of its transport. What it writes before it is adopted is kept (Node discards
 * a child's unread output when it exits), bounded: past EARLY_OUTPUT_BYTES its pipes are paused, and the
 * server waits for us as it would for a slow reader.
 */
export interface EarlyServer {
  child: ChildProcess;
  /** Resolves once the process runs; rejects with the spawn error (ENOENT, EACCES …). */
  spawned: Promise<void>;
  /** Hand over the output kept so far, then pass everything on as it comes. */
  adopt(output: EarlyOutput): void;
  /** Bytes kept so far, not yet handed over. */
  kept(): number;
}

/** Output kept per early process before adoption (its stdout and stderr together). */
export const EARLY_OUTPUT_BYTES = 8 * 1024 * 1024;

const early = new Map<string, EarlyServer>();
let exitHook = false;

const keyOf = (spec: StdioSpawnSpec): string => JSON.stringify([spec.command, spec.args, spec.cwd ?? null, spec.env]);

/** Spawn the server of `spec` now; the next transport with the same spec adopts it (once). */
export function spawnEarly(spec: StdioSpawnSpec): void {
  const key = keyOf(spec);
  if (early.has(key)) return;
  const child = spawnServer(spec);
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  spawned.catch(() => {}); // the adopting transport reports it
  early.set(key, { child, spawned, ...keepOutput(child) });
  if (!exitHook) {
    exitHook = true;
    // One never adopted (a usage error after it, an interrupt) dies with us, its process group too.
    process.once('exit', () => {
      for (const { child: c } of early.values()) killGroup(c);
    });
  }
}

/** The early process of `spec`, handed over once; undefined when there is none. */
export function adoptEarly(spec: StdioSpawnSpec): EarlyServer | undefined {
  const key = keyOf(spec);
  const found = early.get(key);
  early.delete(key);
  return found;
}

/** Keep what `child` writes and how it ends until adopt() names where it goes. */
function keepOutput(child: ChildProcess): Pick<EarlyServer, 'adopt' | 'kept'> {
  const kept: Array<{ stream: 'stdout' | 'stderr'; chunk: Buffer }> = [];
  let bytes = 0;
  let closed: [number | null, NodeJS.Signals | null] | undefined;
  let target: EarlyOutput | undefined;
  const on = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    if (target) return target[stream](chunk);
    kept.push({ stream, chunk });
    bytes += chunk.length;
    if (bytes > EARLY_OUTPUT_BYTES) {
      child.stdout?.pause();
      child.stderr?.pause();
    }
  };
  child.stdout?.on('data', on('stdout'));
  child.stderr?.on('data', on('stderr'));
  child.once('close', (code, signal) => {
    if (target) target.close(code, signal);
    else closed = [code, signal];
  });
  return {
    kept: () => bytes,
    adopt: (output) => {
      for (const { stream, chunk } of kept.splice(0)) output[stream](chunk);
      bytes = 0;
      target = output;
      child.stdout?.resume();
      child.stderr?.resume();
      if (closed) output.close(...closed);
    },
  };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}
