// `run --watch`: the whole run again on every change (watch.ts decides when). The first run prints its
// full summary; each re-run prints one compact line and what changed since the run before (the reports
// on disk are rewritten every time). A usage or config error in a re-run (a config edited mid-way) is
// shown and waited out, not the end of the loop.
import { resolve } from 'node:path';
import { ConfigError } from '../../config/index.ts';
import { loadConfig } from '../../config/index.ts';
import type { AgentConfig } from '../../config/types.ts';
import { detailOf, runVerdict, type RunReport } from '../../report/model.ts';
import { adhocAgent } from './adhoc.ts';
import { UsageError, type RunOptions } from '../options.ts';
import { watchLoop, watchSetup, type RunSnapshot } from './watch.ts';

export async function watchRun(opts: RunOptions, signal: AbortSignal): Promise<number> {
  const setup = watchSetup(opts.watch ?? '', await watchedAgents(opts), [
    opts.out,
    ...(opts.record !== undefined ? [opts.record] : []),
    ...(opts.writeBaseline !== undefined ? [opts.writeBaseline] : []),
  ]);
  const { liveRun } = await import('../pipeline.ts');
  const quiet = new Set([...opts.reporters].filter((r) => r !== 'summary'));
  return watchLoop({
    setup,
    signal,
    say: (line) => process.stdout.write(`${line}\n`),
    run: async (n) => {
      let report: RunReport | undefined;
      try {
        const code = await liveRun({ ...opts, reporters: n === 1 ? opts.reporters : quiet, onReport: (r) => (report = r) }, signal);
        return report ? snapshotOf(report, code) : { code, verdict: 'incomplete', statuses: new Map() };
      } catch (err) {
        if (!(err instanceof UsageError) && !(err instanceof ConfigError)) throw err;
        process.stderr.write(`adcp-conformance run: ${err.message}\n`);
        return { code: 2, verdict: 'usage or config error', statuses: new Map() };
      }
    },
  });
}

/** The agents whose working directories (stdio) and URLs (HTTP) are watched by default. */
async function watchedAgents(opts: RunOptions): Promise<AgentConfig[]> {
  if (opts.adhoc) return [adhocAgent(opts.adhoc)];
  if (opts.config !== undefined) {
    const { agents } = await loadConfig(opts.config);
    return opts.agents.length ? agents.filter((a) => opts.agents.includes(a.name)) : agents;
  }
  // The embedded reference seller: started anew by every run, so only files are watched (the current
  // directory by default: the project, when working on the seller itself).
  return [
    {
      name: 'reference-stdio',
      transport: 'stdio',
      command: process.execPath,
      args: [],
      env: {},
      cwd: resolve('.'),
      timeouts: { connectMs: 0, callMs: 0, agentMs: 0 },
      production: false,
      sandbox: true,
      maxBytes: 0,
      secrets: [],
    },
  ];
}

/** A run's outcomes as the loop compares them, keyed `agent :: check › tool` (numbered when repeated). */
export function snapshotOf(report: RunReport, code: number): RunSnapshot {
  const statuses = new Map<string, string>();
  const details = new Map<string, string>();
  for (const a of report.agents) {
    const seen = new Map<string, number>();
    for (const o of a.outcomes) {
      const base = `${a.name} :: ${o.check} › ${o.tool}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const key = n === 1 ? base : `${base} (${n})`;
      statuses.set(key, o.baseline !== undefined && (o.status === 'fail' || o.status === 'warn') ? 'baselined' : o.status);
      if (o.status === 'fail' || o.status === 'warn') details.set(key, `${detailOf(o)}${o.fix ? ` · fix: ${o.fix}` : ''}`);
    }
  }
  return { code, verdict: runVerdict(report), statuses, details };
}
