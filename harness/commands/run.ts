// `adcp-conformance run`: probe agents, judge them, report. Only the command line is parsed here; the
// pipeline (harness/run/pipeline.ts) loads after, so a usage error answers at once.
// Exit: 0 conformant · 1 conformance failure · 2 usage or config error · 3 incomplete.
import { loadWatchRun, type WatchRunPlan } from '../run/dev/index.ts';
import { parseRunArgs, RUN_USAGE, type RunOptions } from '../run/options.ts';
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
        if (opts.watch !== undefined) return (await loadWatchRun()).watchRun(watchPlan(opts, opts.watch, signal), signal);
        const { liveRun, mergeRun } = await import('../run/pipeline.ts');
        return opts.mergeReports !== undefined ? mergeRun(opts, opts.mergeReports) : liveRun(opts, signal);
      },
    },
    argv,
  );
}

/** What `--watch` needs of the options: what to watch, what not, and one whole run (the dev room never sees RunOptions). */
function watchPlan(opts: RunOptions, watch: string, signal: AbortSignal): WatchRunPlan {
  // Re-runs write every report but print no summary: the loop prints its own compact line instead.
  const quiet = new Set([...opts.reporters].filter((r) => r !== 'summary'));
  return {
    watch,
    adhoc: opts.adhoc,
    config: opts.config,
    agents: opts.agents,
    outputs: [
      opts.out,
      ...(opts.record !== undefined ? [opts.record] : []),
      ...(opts.writeBaseline !== undefined ? [opts.writeBaseline] : []),
    ],
    runOnce: async (first, onReport) =>
      (await import('../run/pipeline.ts')).liveRun({ ...opts, reporters: first ? opts.reporters : quiet, onReport }, signal),
  };
}
