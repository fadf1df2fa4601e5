// `adcp-conformance run`: probe agents, judge them, report. Only the command line is parsed here; the
// pipeline (harness/run/pipeline.ts) loads after, so a usage error answers at once.
// Exit: 0 conformant · 1 conformance failure · 2 usage or config error · 3 incomplete.
import { loadWatchRun } from '../run/dev/index.ts';
import { parseRunArgs, RUN_USAGE } from '../run/options.ts';
import { runCommand } from './command.ts';

export function main(argv: string[]): Promise<number> {
  return runCommand(
    {
      name: 'run',
      usage: RUN_USAGE,
      parse: (args) => {
        const opts = parseRunArgs(args);
        return opts.help ? 'help' : opts;
      },
      run: async (opts, signal) => {
        if (opts.watch !== undefined) return (await loadWatchRun()).watchRun(opts, signal);
        const { liveRun, mergeRun } = await import('../run/pipeline.ts');
        return opts.mergeReports !== undefined ? mergeRun(opts, opts.mergeReports) : liveRun(opts, signal);
      },
    },
    argv,
  );
}
