// The dev-loop options `run` and `probe` share, parsed without loading anything heavy (a usage error
// answers at once): an agent given on the command line (--url / --header / --stdio / --sandbox, turned
// into an agent by adhoc.ts, with its --timeout / --connect-timeout / --agent-timeout, --env and --cwd),
// --watch [PATH] and --verbose.
import { existsSync } from 'node:fs';
import { UsageError } from '../usage-error.ts';

/** parseArgs option specs (spread into a command's own). */
export const DEV_OPTIONS = {
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  stdio: { type: 'string' },
  sandbox: { type: 'boolean' },
  account: { type: 'string' },
  'webhook-keys': { type: 'string' },
  timeout: { type: 'string' },
  'connect-timeout': { type: 'string' },
  'agent-timeout': { type: 'string' },
  env: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  watch: { type: 'string' },
  verbose: { type: 'boolean' },
} as const;

export const ADHOC_USAGE = `  --url URL              test this streamable-HTTP agent (no config file needed)
  --header 'Name: value' an HTTP header for --url (repeatable); its value is a secret, redacted everywhere
  --stdio 'COMMAND ARGS' test this stdio agent: the command line is split like a shell's (quotes,
                         backslashes; no variables or globs) and run in the current directory (or --cwd)
  --cwd DIR              the --stdio agent's working directory, relative to the current one; a relative
                         command (./bin/seller) and the agent's own relative paths mean DIR
  --sandbox              the --url / --stdio agent is a sandbox: the mutating probes run too
  --account REF          the AdCP account the --url / --stdio agent's calls name: an account_id (acc_123),
                         or a reference as JSON ('{"brand":{"domain":"acme.com"},"operator":"acme.com","sandbox":true}')
  --webhook-keys JWKS    the --sandbox agent's public webhook-signing keys: a JWKS file, or the JWKS as JSON;
                         without it webhook.signature stays untested and the verdict incomplete
  --timeout SECONDS      how long one call of the --url / --stdio agent may take (default: 30)
  --connect-timeout SECONDS
                         how long connecting and initialize (and each tools/list page) may take (default: 10)
  --agent-timeout SECONDS
                         the whole session of the agent, every call included (default: 180, and at least
                         --timeout plus --connect-timeout)
  --env KEY=VALUE        an environment variable for the --stdio agent (repeatable); KEY alone passes this
                         shell's value of KEY on. Every value is a secret, redacted everywhere. The agent
                         inherits only HOME, LOGNAME, PATH, SHELL, TERM and USER otherwise`;

export const WATCH_USAGE = `  --watch [PATH]         run again whenever a file under PATH changes (default: the stdio agents' working
                         directory) or an HTTP agent comes back after a restart; one line per run and what
                         changed since the previous one; Ctrl-C stops
  --verbose              print every JSON-RPC message on the wire to stderr (redacted, bounded)`;

/** The command-line agent, as given (adhoc.ts checks and builds it). */
export interface AdhocValues {
  url?: string | undefined;
  header?: string[] | undefined;
  stdio?: string | undefined;
  sandbox?: boolean | undefined;
  /** `--account`: an account_id, or an account reference as JSON (adhoc.ts checks it). */
  account?: string | undefined;
  /** `--webhook-keys`: a JWKS file path, or a JWKS as JSON (adhoc.ts reads and checks it). */
  webhookKeys?: string | undefined;
  /** `--timeout` / `--connect-timeout` / `--agent-timeout`, in ms (already checked: positive, bounded). */
  timeouts?: { callMs?: number; connectMs?: number; agentMs?: number } | undefined;
  /** `--env` entries as given (`KEY=VALUE` or `KEY`; adhoc.ts checks and resolves them). */
  env?: string[] | undefined;
  /** `--cwd`: the stdio agent's working directory, as given (relative to the user's directory). */
  cwd?: string | undefined;
}

/** The longest timeout a flag takes, in seconds (a day): longer would overflow Node's timers (~24.8 days). */
export const MAX_TIMEOUT_SECONDS = 86_400;

/** `--timeout 7.5` → 7500 (ms). Throws UsageError unless a positive number of seconds, at most a day. */
export function timeoutSeconds(flag: string, text: string): number {
  const n = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`${flag}: expected a positive number of seconds (e.g. 30 or 2.5), got '${text.slice(0, 40)}'`);
  if (n > MAX_TIMEOUT_SECONDS) throw new UsageError(`${flag}: at most ${MAX_TIMEOUT_SECONDS} seconds (a day), got '${text.slice(0, 40)}'`);
  return Math.max(1, Math.round(n * 1000));
}

export interface DevOptions {
  adhoc?: AdhocValues;
  /** `--watch`: the path given, or '' for the default. */
  watch?: string;
  verbose?: boolean;
}

/**
 * `--watch` takes an optional PATH: `--watch=PATH`, `--watch PATH` when PATH exists (so `probe --watch
 * get_products` still reads get_products as the tool), or a bare `--watch` (the default path).
 */
export function normalizeWatchArg(argv: readonly string[], exists: (p: string) => boolean = existsSync): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a !== '--watch') {
      out.push(a);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('-') && exists(next)) {
      out.push(`--watch=${next}`);
      i++;
    } else out.push('--watch=');
  }
  return out;
}

/** The dev-loop options out of parsed values, with the combinations that cannot work refused. */
export function devOptionsOf(
  values: Omit<AdhocValues, 'timeouts' | 'webhookKeys'> & {
    'webhook-keys'?: string | undefined;
    timeout?: string | undefined;
    'connect-timeout'?: string | undefined;
    'agent-timeout'?: string | undefined;
    watch?: string | undefined;
    verbose?: boolean | undefined;
  },
): DevOptions {
  const out: DevOptions = {};
  const given = values.url !== undefined || values.stdio !== undefined;
  // Checked first: a bad number is a usage error whatever else the command line holds.
  const timeouts: NonNullable<AdhocValues['timeouts']> = {};
  if (values.timeout !== undefined) timeouts.callMs = timeoutSeconds('--timeout', values.timeout);
  if (values['connect-timeout'] !== undefined) timeouts.connectMs = timeoutSeconds('--connect-timeout', values['connect-timeout']);
  if (values['agent-timeout'] !== undefined) timeouts.agentMs = timeoutSeconds('--agent-timeout', values['agent-timeout']);
  const timed = Object.keys(timeouts).length > 0;
  if (given)
    out.adhoc = {
      url: values.url,
      header: values.header,
      stdio: values.stdio,
      sandbox: values.sandbox,
      ...(values.account !== undefined ? { account: values.account } : {}),
      ...(values['webhook-keys'] !== undefined ? { webhookKeys: values['webhook-keys'] } : {}),
      ...(timed ? { timeouts } : {}),
      ...(values.env?.length ? { env: values.env } : {}),
      ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    };
  else if (values.header?.length) throw new UsageError('--header goes with --url');
  else if (values.sandbox) throw new UsageError('--sandbox goes with --url or --stdio');
  else if (values.account !== undefined)
    throw new UsageError('--account goes with --url or --stdio (a config agent sets `account` in the config)');
  else if (values['webhook-keys'] !== undefined)
    throw new UsageError('--webhook-keys goes with --url or --stdio (a config agent sets `webhookKeys` in the config)');
  else if (timed)
    throw new UsageError(
      '--timeout, --connect-timeout and --agent-timeout go with --url or --stdio (a config agent sets `timeouts` in the config)',
    );
  else if (values.env?.length) throw new UsageError('--env goes with --stdio (a config agent sets `env` in the config)');
  else if (values.cwd !== undefined) throw new UsageError('--cwd goes with --stdio (a config agent sets `cwd` in the config)');
  if (values.url !== undefined && values.stdio !== undefined)
    throw new UsageError('--url and --stdio cannot be used together: one agent at a time');
  if (values.watch !== undefined) out.watch = values.watch;
  if (values.verbose) out.verbose = true;
  return out;
}
