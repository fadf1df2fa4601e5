// Starting the embedded reference seller from the harness and from tests: the stdio command line
// (the harness spawns it itself) and an HTTP seller in a child process on an ephemeral loopback port.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The AdCP tasks the reference seller exposes, in the order it lists them (the mutating two are sandbox only). */
export const REFERENCE_SELLER_TASKS = [
  'get_adcp_capabilities',
  'get_products',
  'list_creative_formats',
  'list_creatives',
  'get_media_buys',
  'get_media_buy_delivery',
  'get_signals',
  'create_media_buy',
  'sync_creatives',
  'update_media_buy',
  'provide_performance_feedback',
  'activate_signal',
] as const;

export interface SellerOptions {
  faults?: string[];
  responseMode?: 'json' | 'sse';
  outputShape?: 'root' | 'legacy';
  /** Sandbox seller (default true): lists create_media_buy / sync_creatives. */
  sandbox?: boolean;
  /** HTTP only: require `Authorization: Bearer <token>` on every request. */
  token?: string;
  /** Refuse every call that takes an `account` unless it names `{account_id: requireAccount}`. */
  requireAccount?: string;
  /** get_adcp_capabilities names this as `identity.brand_json_url` (where the seller's keys are published). */
  brandJsonUrl?: string;
  /** Lists `comply_test_controller` (sandbox sellers only: `--test-controller`). */
  testController?: boolean;
  /** The startup snapshot to start from (SELLER_SNAPSHOT_ENV): by default the one it names, if any; null, none. */
  snapshot?: string | null;
}

/**
 * Absolute path of the seller's JS entry, sellers/reference-seller.js in the project (it runs dist/ when
 * built, else the sources): from sellers/launch.ts and from its compiled dist/sellers/launch.js alike.
 */
const HERE = fileURLToPath(import.meta.url);
export const SELLER_ENTRY = path.join(path.dirname(HERE), path.extname(HERE) === '.js' ? '../../sellers' : '.', 'reference-seller.js');
/** The reference seller's public webhook JWKS (what a config's `webhookKeys` names to verify its deliveries). */
export const REFERENCE_WEBHOOK_JWKS = path.join(path.dirname(SELLER_ENTRY), 'reference', 'webhook-jwks.json');

const START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;
const STDERR_TAIL_BYTES = 8_192;

function sellerArgs(transport: 'stdio' | 'http', opts: SellerOptions): string[] {
  const args = [SELLER_ENTRY, '--transport', transport];
  if (transport === 'http') args.push('--port', '0', '--response-mode', opts.responseMode ?? 'json', '--exit-on-stdin-end');
  if (opts.outputShape) args.push('--output-shape', opts.outputShape);
  if (opts.sandbox === false) args.push('--no-sandbox');
  // One argument: a base64url token may begin with '-', which parseArgs would read as an option.
  if (opts.token !== undefined) args.push(`--token=${opts.token}`);
  if (opts.requireAccount !== undefined) args.push(`--require-account=${opts.requireAccount}`);
  if (opts.brandJsonUrl !== undefined) args.push(`--brand-json-url=${opts.brandJsonUrl}`);
  if (opts.testController) args.push('--test-controller');
  for (const fault of opts.faults ?? []) args.push('--fault', fault);
  return args;
}

/**
 * Names a V8 startup snapshot of the seller (scripts/seller-snapshot.mjs) to start sellers from: they begin
 * with their modules loaded (~0.15 CPU-s less per seller). The test suite builds one per run
 * (test/setup/seller-snapshot.ts) and starts hundreds of sellers. Used only when it was built from this
 * project's dist/.
 */
export const SELLER_SNAPSHOT_ENV = 'ADCP_CONFORMANCE_SELLER_SNAPSHOT';

/** The dist/ this seller runs (SELLER_ENTRY's project's). */
const OWN_DIST = path.join(path.dirname(path.dirname(SELLER_ENTRY)), 'dist');
const snapshotDists = new Map<string, string | undefined>();
/**
 * Whether `snapshot` was built from this project's dist/ (its `.json` beside it says which): an installed
 * copy of the harness that a test runs inherits the variable, and must start its own seller.
 */
function ownSnapshot(snapshot: string): boolean {
  if (!snapshotDists.has(snapshot)) {
    let dist: string | undefined;
    try {
      dist = (JSON.parse(readFileSync(`${snapshot}.json`, 'utf8')) as { dist?: string }).dist;
    } catch {
      dist = undefined; // none, or unreadable: not ours
    }
    snapshotDists.set(snapshot, dist);
  }
  return snapshotDists.get(snapshot) === OWN_DIST && existsSync(snapshot);
}

/** node's arguments for a seller: its entry script and options, or the snapshot and (after `--`) the options. */
function nodeArgs(transport: 'stdio' | 'http', opts: SellerOptions): string[] {
  const args = sellerArgs(transport, opts);
  const snapshot = opts.snapshot === undefined ? process.env[SELLER_SNAPSHOT_ENV] : opts.snapshot;
  return snapshot && ownSnapshot(snapshot) ? ['--snapshot-blob', snapshot, '--', ...args.slice(1)] : args;
}

export function stdioSellerCommand(opts: SellerOptions = {}): { command: string; args: string[] } {
  return { command: process.execPath, args: nodeArgs('stdio', opts) };
}

// Children still running when this process exits are killed with it.
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function stop(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  try {
    await gone;
  } finally {
    clearTimeout(timer);
  }
}

export async function startHttpSeller(opts: SellerOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
  // stdin is a pipe we never write: when this process dies, it closes and the seller exits too.
  const child = spawn(process.execPath, nodeArgs('http', opts), { stdio: ['pipe', 'pipe', 'pipe'] });
  track(child);
  let stderrTail = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
  });

  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const fail = (why: string) => {
      cleanup();
      void stop(child);
      reject(new Error(`reference seller did not start: ${why}${stderrTail ? `\n${stderrTail.trim()}` : ''}`));
    };
    const onData = (chunk: string) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline >= 0) {
        const match = /^listening (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(stdout.slice(0, newline).trim());
        cleanup();
        if (match) resolve(match[1]!);
        else fail(`unexpected first stdout line '${stdout.slice(0, Math.min(newline, 200))}'`);
      } else if (stdout.length > 4096) fail('no listening line in the first 4 KiB of stdout');
    };
    const onExit = (code: number | null, signal: string | null) => fail(`exited (code ${code}, signal ${signal})`);
    const onError = (err: Error) => fail(err.message);
    const timer = setTimeout(() => fail(`no listening line within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
  // Nothing else is expected on stdout; keep draining it so the child never blocks.
  child.stdout!.resume();

  let closing: Promise<void> | undefined;
  return { url, close: () => (closing ??= stop(child)) };
}
