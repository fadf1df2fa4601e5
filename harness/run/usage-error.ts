// A mistake on the command line (exit 2). Its own module so option parsers can share it without
// importing each other (options.ts re-exports it: `import { UsageError } from './options.ts'` still works).
// A usage error is told in one line plus where the command's help is, never the whole help: the mistake
// stays on screen, and a did-you-mean names the flag, command or id the user most likely meant.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { stripUnsafe } from '../sanitize.ts';
import { nearest } from './nearest.ts';

export class UsageError extends Error {}

/** What stderr gets for a usage error of `command` (e.g. `run`; '' for the top level). */
export function usageErrorText(command: string, message: string): string {
  const name = command ? `adcp-conformance ${command}` : 'adcp-conformance';
  // The message may quote the command line (or a seller's tool name): nothing in it forges output.
  return `${name}: ${stripUnsafe(message)}\nsee '${name} --help'\n`;
}

/** ` (did you mean X?)` when a known name is within a typo of `name`, else ''. */
export function didYouMean(name: string, known: readonly string[]): string {
  const near = nearest(name, known);
  return near === undefined ? '' : ` (did you mean ${near}?)`;
}

/** node:util parseArgs, with its errors turned into one-line UsageErrors that suggest a known flag. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw parseArgsUsageError(err, config.options ?? {});
  }
}

/** parseArgs' error (unknown option, missing or unwanted value, stray argument) as a UsageError. */
export function parseArgsUsageError(err: unknown, options: NonNullable<ParseArgsConfig['options']>): UsageError {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  const flags = Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
  // Node words these as `Unknown option '--x'`, `Option '-h, --help' does not take an argument`,
  // `Option '--out <value>' argument missing` and `Unexpected argument 'x'` (Node 20 and 22 alike).
  const unknown = /^Unknown option '([^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== undefined)
    return new UsageError(`unknown option ${unknown}${didYouMean(unknown, flags)}`);
  const option = /^Option '(?:-[^,]+, )?(--[^' ]+)( <value>)?'/.exec(message);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option)
    return new UsageError(option[2] ? `${option[1]} needs a value` : `${option[1]} takes no value`);
  const stray = /^Unexpected argument '([^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && stray !== undefined)
    return new UsageError(`unexpected argument '${stray}' (this command takes options only)`);
  return new UsageError(message);
}
