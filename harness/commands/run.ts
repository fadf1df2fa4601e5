// `adcp-conformance run`: probe agents, judge them, report. Only the command line is parsed here; the
// pipeline (harness/run/pipeline.ts) loads after, so a usage error answers at once.
// Exit: 0 conformant · 1 conformance failure · 2 usage or config error · 3 incomplete.
import { ConfigError } from '../config/index.ts';
import { parseRunArgs, RUN_USAGE, UsageError, type RunOptions } from '../run/options.ts';
import { usageErrorText } from '../run/usage-error.ts';

export async function main(argv: string[]): Promise<number> {
  let opts: RunOptions;
  try {
    opts = parseRunArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) return usageError(err.message);
    throw err;
  }
  if (opts.help) {
    process.stdout.write(RUN_USAGE + '\n');
    return 0;
  }
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (opts.watch !== undefined) return await (await import('../run/watch-run.ts')).watchRun(opts, interrupt.signal);
    const { liveRun, mergeRun } = await import('../run/pipeline.ts');
    return opts.mergeReports !== undefined ? await mergeRun(opts, opts.mergeReports) : await liveRun(opts, interrupt.signal);
  } catch (err) {
    if (err instanceof UsageError) return usageError(err.message);
    if (err instanceof ConfigError) {
      process.stderr.write(`adcp-conformance run: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function usageError(message: string): number {
  process.stderr.write(usageErrorText('run', message));
  return 2;
}
