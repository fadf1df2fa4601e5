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
import type { AdhocValues } from './dev-options.ts';
import { UsageError } from '../usage-error.ts';
import { watchLoop, watchSetup, type RunSnapshot } from './watch.ts';

/** What the watch loop needs of a run, built by the command from its options (the rooms never see them whole). */
export interface WatchRunPlan {
  /** `--watch PATH`, or '' for the default: the watched agents' working directories and URLs. */
  watch: string;
  /** Which agents are watched by default: the ad-hoc one, else the config's (all, or those named), else the reference seller. */
  adhoc?: AdhocValues | undefined;
  config?: string | undefined;
  agents: readonly string[];
  /** What every run writes (reports, recording, baseline), never taken for a change. */
  outputs: readonly string[];
  /** One whole run, ended by the loop's signal. `first`: print the full summary (later runs print only the loop's compact line). */
  runOnce(first: boolean, onReport: (report: RunReport) => void): Promise<number>;
}

export async function watchRun(plan: WatchRunPlan, signal: AbortSignal): Promise<number> {
  const setup = watchSetup(plan.watch, await watchedAgents(plan), plan.outputs);
  return watchLoop({
    setup,
    signal,
    say: (line) => process.stdout.write(`${line}\n`),
    run: async (n) => {
      let report: RunReport | undefined;
      try {
        const code = await plan.runOnce(n === 1, (r) => (report = r));
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
async function watchedAgents(plan: WatchRunPlan): Promise<AgentConfig[]> {
  if (plan.adhoc) return [adhocAgent(plan.adhoc)];
  if (plan.config !== undefined) {
    const { agents } = await loadConfig(plan.config);
    return plan.agents.length ? agents.filter((a) => plan.agents.includes(a.name)) : agents;
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
