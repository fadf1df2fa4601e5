// The one wrapper `run` and `probe` share: parse, answer --help, run with SIGINT/SIGTERM turned into an
// abort the command winds down on (reports what it has, ends the sellers it started), and map the errors
// a user can fix to exit 2 with one line. Anything else is a bug and propagates.
import { ConfigError } from '../config/errors.ts';
import { UsageError, usageErrorText } from '../run/usage-error.ts';

export interface Command<O> {
  /** The command's name as typed (`run`, `probe`): it prefixes every error line. */
  name: string;
  usage: string;
  /** Options from argv, or 'help'; throws UsageError on a bad command line. */
  parse(argv: string[]): O | 'help' | Promise<O | 'help'>;
  /** The command itself: its exit code. `signal` aborts on SIGINT or SIGTERM. */
  run(opts: O, signal: AbortSignal): Promise<number>;
}

export async function runCommand<O>(command: Command<O>, argv: string[]): Promise<number> {
  let opts: O | 'help';
  try {
    opts = await command.parse(argv);
  } catch (err) {
    if (err instanceof UsageError) return usageError(command.name, err.message);
    throw err;
  }
  if (opts === 'help') {
    process.stdout.write(command.usage + '\n');
    return 0;
  }
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await command.run(opts, interrupt.signal);
  } catch (err) {
    if (err instanceof UsageError) return usageError(command.name, err.message);
    if (err instanceof ConfigError) {
      process.stderr.write(`adcp-conformance ${command.name}: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function usageError(name: string, message: string): number {
  process.stderr.write(usageErrorText(name, message));
  return 2;
}
