// The dev-loop options `run` and `probe` share, parsed without loading anything heavy (a usage error
// answers at once): an agent given on the command line (--url / --header / --stdio / --sandbox, turned
// into an agent by adhoc.ts), --watch [PATH] and --verbose.
import { existsSync } from 'node:fs';
import { UsageError } from './usage-error.ts';

/** parseArgs option specs (spread into a command's own). */
export const DEV_OPTIONS = {
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  stdio: { type: 'string' },
  sandbox: { type: 'boolean' },
  watch: { type: 'string' },
  verbose: { type: 'boolean' },
} as const;

export const ADHOC_USAGE = `  --url URL              test this streamable-HTTP agent (no config file needed)
  --header 'Name: value' an HTTP header for --url (repeatable); its value is a secret, redacted everywhere
  --stdio 'COMMAND ARGS' test this stdio agent: the command line is split like a shell's (quotes,
                         backslashes; no variables or globs) and run in the current directory
  --sandbox              the --url / --stdio agent is a sandbox: the mutating probes run too`;

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
export function devOptionsOf(values: AdhocValues & { watch?: string | undefined; verbose?: boolean | undefined }): DevOptions {
  const out: DevOptions = {};
  const given = values.url !== undefined || values.stdio !== undefined;
  if (given) out.adhoc = { url: values.url, header: values.header, stdio: values.stdio, sandbox: values.sandbox };
  else if (values.header?.length) throw new UsageError('--header goes with --url');
  else if (values.sandbox) throw new UsageError('--sandbox goes with --url or --stdio');
  if (values.url !== undefined && values.stdio !== undefined)
    throw new UsageError('--url and --stdio cannot be used together: one agent at a time');
  if (values.watch !== undefined) out.watch = values.watch;
  if (values.verbose) out.verbose = true;
  return out;
}
