// The run itself, loaded only once the command line parsed (vitest and the checks are heavy imports):
// probe or replay, judge, let vitest turn outcomes into test cases (JUnit, blobs for sharding), then
// write report.json / summary.md and print the summary.
import { basename, resolve } from 'node:path';
import { userCacheDir } from '../cache-dir.ts';
import { readdir } from 'node:fs/promises';
import type { AgentCapture } from '../record/exchange.ts';
import { catalogIds } from '../checks/catalog-files.ts';
import { parseSchemasOption, type SchemaSource } from '../schemas/index.ts';
import type { AgentReport, RunProvenance, RunReport } from '../report/model.ts';
import { toolVersions } from '../version.ts';
import { gateExitCode } from '../report/model.ts';
import { compareReports, loadPreviousReport, type PreviousReport } from '../report/compare.ts';
import { checkExpectIds, renderBaselineYaml } from './baseline.ts';
import { sellerText, stripUnsafe, truncate } from '../sanitize.ts';
import { paintFor, renderTerminalSummary } from '../report/terminal.ts';
import { summarize } from '../report/summary.ts';
import { captureAll, captureDurations } from './capture-all.ts';
import type { CollectedRun } from './collector.ts';
import { parseSelection, runAgentStoryboards, type AgentStoryboards } from './storyboards.ts';
import pLimit from 'p-limit';
import { checkSelector, UsageError, type RunOptions } from './options.ts';
import { createProgress } from './progress.ts';
import { wireLogger } from './wire-log.ts';
import type { AgentConfig } from '../config/types.ts';
import { resolveTargets, type Target } from './resolve.ts';
import { sharedReceiver } from '../webhooks/agent-receiver.ts';
import type { WebhookReceiver } from '../webhooks/receiver.ts';
import {
  closeJudgeSandboxes,
  JudgeAhead,
  judgeCaptureIsolated,
  likelyTools,
  mayReverify,
  planReverify,
  reverifyFailures,
  warmJudge,
  type ReverifyPlan,
} from './judge/index.ts';
import {
  checkOutputPaths,
  createWorkspace,
  loadVitestDriver,
  openMergeWork,
  suiteFile,
  testCases,
  writeFileAtomically,
  writeReports,
  type AgentSuiteData,
  type TestCase,
  type Workspace,
} from './vitest/index.ts';

export async function liveRun(opts: RunOptions, interrupted: AbortSignal): Promise<number> {
  const startedAt = new Date().toISOString();
  const { select, schemaSource, releases, previous } = await beforeAnything(opts);
  const { targets, close } = await resolveTargets(opts);
  let workspace: Workspace | undefined;
  let probing: Promise<AgentCapture[]> | undefined;
  let shared: WebhookReceiver | undefined;
  try {
    // A mistyped check id in an `expect` entry would excuse nothing, silently: a config error first.
    if (opts.config !== undefined) checkExpectIds(targets, opts.config, catalogIds());
    // The judge worker starts and compiles our AdCP schemas while the agents are probed (warm-schemas.ts).
    const live = targets.flatMap((t) => (t.config ? [t.config] : []));
    // --webhook-url: one receiver on the forwarder's port serves every sandbox agent (each under its own token).
    shared = await sharedReceiver(opts.webhooks, live).catch((err: unknown) => {
      throw new UsageError(err instanceof Error ? err.message : String(err));
    });
    const warming = live[0] ? warmJudge(schemaSource, live[0], likelyTools(live), interrupted) : Promise.resolve();
    const judgeOne = agentJudge(opts, schemaSource, select, interrupted);
    // Each agent is judged as soon as its session ends, while the others are still probed (judge-ahead.ts).
    const ahead = new JudgeAhead(warming);
    const suites = new AgentSuites(opts.reporters.has('blob'));
    const judgeEarly = judgeAsCaptured(opts, targets, ahead, judgeOne, suites, () => workspace, interrupted);
    // vitest takes seconds to import: load it while the agents are being probed.
    const vitestDriver = loadVitestDriver();
    vitestDriver.catch(() => {}); // awaited below; never an unhandled rejection if the workspace fails first
    const ws = (workspace = await createWorkspace(
      targets.map((t) => t.name),
      { keep: opts.keepWork },
    ));
    // Unsharded, every agent runs: probe at once. Sharded, vitest first says which agents are ours.
    probing = opts.shard ? undefined : sessionsOf(targets, opts, interrupted, releases, judgeEarly, shared);
    const { keysInShard, openVitest } = await vitestDriver;
    const driven = await openVitest(vitestOptions(opts, ws, suites));
    try {
      const inShard = probing ? undefined : await keysInShard(driven.vitest);
      const chosen = inShard ? targets.filter((t) => inShard.has(ws.keys.get(t.name) ?? '')) : targets;
      // vitest starts now, while the agents are probed: its start-up overlaps the probing, and each agent's
      // suite waits for that agent's data (ws.writeData below; ws.abandon() if the run stops first).
      const running = driven.vitest.start().then(
        () => null,
        (err: unknown) => truncate(stripUnsafe(err instanceof Error ? err.message : String(err)), 500),
      );
      const captures = await (probing ?? sessionsOf(chosen, opts, interrupted, releases, judgeEarly, shared));
      const recordError = opts.record === undefined ? null : await recordCaptures(opts.record, chosen, captures);
      // The official storyboards (advisory), through our own proxy, per live agent, after its probes.
      const storyboards =
        opts.storyboards === undefined
          ? new Map<string, AgentStoryboards>()
          : await storyboardsOf(chosen, opts.storyboards, opts.concurrency, interrupted);
      await judgeAll(chosen, captures, storyboards, ahead, judgeOne, suites, targets.length);
      // A failing read-only call is asked once more in a fresh session before it is reported (flaky).
      const plans = opts.reverify !== false && !interrupted.aborted ? reverifyPlans(chosen, captures, suites.judged, opts.strict) : [];
      captures.length = 0; // judged and planned from: their answers (MBs each, when large) are not held through what follows
      if (plans.length) await reverify(plans, opts, schemaSource, interrupted);
      // Every agent is judged: the idle judge worker's heap is not kept through vitest's cases and the reports.
      await closeJudgeSandboxes();
      // The rest (re-verified, storyboards, replays), now that they are final.
      for (const [name, data] of suites.judged) await suites.write(ws, name, data);
      await ws.abandon(); // every judged agent's data is written: a suite still waiting has none coming
      const vitestError = await running;
      const collected = driven.collector.result;
      const agents = chosen.map((t) => agentReport(t, ws.keys.get(t.name) ?? '', suites.judged, collected));
      const cutShort = interrupted.aborted ? 'interrupted' : (recordError ?? vitestError ?? vitestCutShort(collected));
      const run = await provenance(startedAt, schemaSource, opts, [...storyboards.values()].find((r) => r.corpusVersion)?.corpusVersion);
      const report = { agents, strict: opts.strict, cutShort, run };
      return await finish(report, collected, opts, driven.junitFile, vitestError ? driven.log() : '', previous);
    } finally {
      await ws.abandon(); // a suite still waiting for data (the run stopped early) would keep vitest from closing
      await driven.vitest.close();
    }
  } finally {
    await probing; // never rejects (captureAgent never throws); lets sellers close before we stop them
    await shared?.close();
    await closeJudgeSandboxes();
    await close();
    await workspace?.dispose();
  }
}

/** Everything that can be a usage or config error, decided before anything starts. */
async function beforeAnything(opts: RunOptions) {
  const select = checkSelector(opts.checks, catalogIds());
  const schemaSource = schemasOption(opts.schemas);
  // The releases the harness has schemas for: what capture pins (`adcp_version`) after get_adcp_capabilities.
  const releases = (): Promise<string[]> => schemaSource.versions().catch(() => []);
  await checkOutputPaths(opts.out, opts.record, opts.writeBaseline);
  return { select, schemaSource, releases, previous: await previousReport(opts) };
}

type JudgeOne = (target: Target, capture: AgentCapture, storyboards: ReadonlyMap<string, AgentStoryboards>) => Promise<AgentSuiteData>;

/** How one agent is judged in this run: its baseline, the run's selection, budget and strictness. */
function agentJudge(
  opts: RunOptions,
  schemaSource: SchemaSource,
  select: ReturnType<typeof checkSelector>,
  interrupted: AbortSignal,
): JudgeOne {
  return (target, capture, storyboards) => {
    const duration = captureDurations.get(capture);
    // One agent's failure is that agent's alone: a harness error while judging it marks it incomplete.
    return judgeCaptureIsolated(capture, {
      index: target.index,
      schemaSource,
      ...(select ? { select } : {}),
      ...(target.expect ? { expect: target.expect } : {}),
      ...(target.expectPointers ? { expectPointers: target.expectPointers } : {}),
      ...(opts.config !== undefined ? { configFile: opts.config } : {}),
      ...(opts.noBaseline ? { noBaseline: true } : {}),
      secrets: target.secrets,
      strict: opts.strict,
      interrupted: interrupted.aborted,
      ...(opts.judgeTimeoutMs === undefined ? {} : { judgeBudget: { timeMs: opts.judgeTimeoutMs } }),
      junitAll: opts.junitAll === true,
      ...(duration === undefined ? {} : { durationMs: duration }),
      ...(storyboards.has(target.name)
        ? { storyboards: storyboards.get(target.name)!, strictStoryboards: opts.strictStoryboards === true }
        : {}),
    });
  };
}

/** Each agent's data once judged, its test cases (vitest's reporters read both), and its data file once written. */
class AgentSuites {
  readonly judged = new Map<string, AgentSuiteData>();
  readonly cases = new Map<string, TestCase[]>();
  /**
   * Each agent's data file, once written (or being written): an agent final early has its suite run
   * while the others are still probed. The run awaits every write before it says "no more data" (abandon).
   */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(private readonly blob: boolean) {}

  write(ws: Workspace, name: string, data: AgentSuiteData): Promise<void> {
    let write = this.writes.get(name);
    if (!write) {
      // One test case per check × tool (harness/report/test-cases.ts), decided here once; the outcomes go
      // into the data file only for a blob.
      const cases = testCases(data.outcomes, data.junitAll === true, data.strict);
      this.cases.set(name, cases);
      write = ws.writeData(name, suiteFile(data, cases, this.blob));
      this.writes.set(name, write);
    }
    return write;
  }
}

/**
 * Judging each agent as soon as its session ends, while the others are still probed — not when
 * storyboards run: they come after every probe, and are judged with the agent (undefined then).
 */
function judgeAsCaptured(
  opts: RunOptions,
  targets: readonly Target[],
  ahead: JudgeAhead,
  judgeOne: JudgeOne,
  suites: AgentSuites,
  workspace: () => Workspace | undefined,
  interrupted: AbortSignal,
): ((agent: AgentConfig, capture: AgentCapture) => void) | undefined {
  if (opts.storyboards !== undefined) return undefined;
  const byName = new Map(targets.map((t) => [t.name, t]));
  return (agent, capture) => {
    const target = byName.get(agent.name);
    if (!target) return;
    const judging = () => judgeOne(target, capture, new Map());
    ahead.start(capture, judging);
    // An agent nothing will be asked of again (re-verification) is final once judged: its data is
    // written now, so vitest runs its suite while the other agents are still probed.
    void ahead
      .take(capture, judging)
      .then(async (data) => {
        if (interrupted.aborted || (opts.reverify !== false && target.config && mayReverify(capture, data, opts.strict))) return;
        data.runAgents = targets.length;
        const ws = workspace();
        if (ws) await suites.write(ws, target.name, data);
      })
      .catch(() => {}); // written at the end instead
  };
}

/** What vitest is given: the workspace, the reporters, and where each agent's outcomes and cases are read. */
function vitestOptions(opts: RunOptions, ws: Workspace, suites: AgentSuites) {
  const nameOfKey = new Map([...ws.keys].map(([name, key]) => [key, name]));
  return {
    root: ws.root,
    files: ws.files,
    dataDir: ws.dataDir,
    outDir: resolve(opts.out),
    reporters: opts.reporters,
    concurrency: opts.concurrency,
    ...(opts.shard ? { shard: opts.shard } : {}),
    outcomesOf: (key: string) => suites.judged.get(nameOfKey.get(key) ?? '')?.outcomes,
    casesOf: (key: string) => suites.cases.get(nameOfKey.get(key) ?? ''),
  };
}

/** Every agent's data, judged ahead or now (with its storyboards), in the order of `chosen`. */
async function judgeAll(
  chosen: readonly Target[],
  captures: readonly AgentCapture[],
  storyboards: ReadonlyMap<string, AgentStoryboards>,
  ahead: JudgeAhead,
  judgeOne: JudgeOne,
  suites: AgentSuites,
  runAgents: number,
): Promise<void> {
  for (const [i, target] of chosen.entries()) {
    const capture = captures[i];
    if (!capture) continue;
    const data = await ahead.take(capture, () => judgeOne(target, capture, storyboards));
    data.runAgents = runAgents;
    suites.judged.set(target.name, data);
  }
}

/** `--record FILE`: a failed recording (disk full, …) is a run cut short (the reason), not a crash that loses every report. */
async function recordCaptures(file: string, chosen: readonly Target[], captures: AgentCapture[]): Promise<string | null> {
  try {
    const { writeRecording } = await import('../capture/recording.ts');
    await writeRecording(
      file,
      captures,
      chosen.flatMap((t) => [...t.secrets]),
    );
    return null;
  } catch (err) {
    return truncate(stripUnsafe(`--record ${file}: ${err instanceof Error ? err.message : String(err)}`), 500);
  }
}

/** Why the run is cut short on vitest's side, or null. */
function vitestCutShort(collected: CollectedRun | undefined): string | null {
  if (!collected) return 'vitest did not finish';
  return collected.errors.length ? `vitest: ${collected.errors.join('; ')}` : null;
}

/** `--compare FILE`, read and checked before anything runs (a bad file is a usage error, exit 2). */
async function previousReport(opts: RunOptions): Promise<PreviousReport | undefined> {
  if (opts.compare === undefined) return undefined;
  try {
    return await loadPreviousReport(opts.compare);
  } catch (err) {
    throw new UsageError(`--compare ${opts.compare}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** What re-verification asks each live agent again (a replay has no seller to ask), read off the captures. */
function reverifyPlans(
  chosen: readonly Target[],
  captures: readonly AgentCapture[],
  judged: ReadonlyMap<string, AgentSuiteData>,
  strict: boolean,
): ReverifyPlan[] {
  return chosen.flatMap((t, i) => {
    const data = judged.get(t.name);
    const capture = captures[i];
    const plan = t.config && data && capture ? planReverify({ config: t.config, capture, data, index: t.index }, strict) : undefined;
    return plan ? [plan] : [];
  });
}

/** Re-verification of failing read-only calls. */
async function reverify(
  plans: readonly ReverifyPlan[],
  opts: RunOptions,
  schemaSource: SchemaSource,
  interrupted: AbortSignal,
): Promise<void> {
  const progress = createProgress(
    plans.map((x) => x.config.name),
    process.stderr,
    process.env,
    plans.flatMap((x) => x.config.secrets),
  );
  try {
    await reverifyFailures(plans, { concurrency: opts.concurrency, signal: interrupted, strict: opts.strict, schemaSource, progress });
  } finally {
    progress.close();
  }
}

/** Each live agent's storyboard run, `concurrency` agents at a time (a replay has no agent to run them against). */
async function storyboardsOf(
  targets: readonly Target[],
  selection: string,
  concurrency: number,
  interrupted: AbortSignal,
): Promise<Map<string, AgentStoryboards>> {
  const limit = pLimit(concurrency);
  const runs = await Promise.all(
    targets.map((t) =>
      limit(async () =>
        t.config && !interrupted.aborted
          ? ([t.name, await runAgentStoryboards(t.config, parseSelection(selection), interrupted)] as const)
          : undefined,
      ),
    ),
  );
  return new Map(runs.filter((r) => r !== undefined));
}

/** Live probes for config / embedded agents, the recording under --replay. Same order as `targets`. */
async function sessionsOf(
  targets: readonly Target[],
  opts: RunOptions,
  interrupted: AbortSignal,
  releases: () => Promise<string[]>,
  onCaptured?: (agent: AgentConfig, capture: AgentCapture) => void,
  shared?: WebhookReceiver,
): Promise<AgentCapture[]> {
  const live = targets.flatMap((t) => (t.config ? [t.config] : []));
  if (!live.length) return targets.flatMap((t) => (t.recorded ? [t.recorded] : []));
  const adcpReleases = await releases();
  const progress = createProgress(
    live.map((a) => a.name),
    process.stderr,
    process.env,
    live.flatMap((a) => a.secrets),
  );
  try {
    const wire = opts.verbose ? (a: AgentConfig) => wireLogger(a.name, a.secrets) : undefined;
    const late = opts.webhooks?.lateMs;
    const webhooks = shared || late ? { ...(shared ? { receiver: shared } : {}), ...(late ? { lateMs: late } : {}) } : undefined;
    return await captureAll(live, {
      concurrency: opts.concurrency,
      signal: interrupted,
      progress,
      adcpReleases,
      ...(wire ? { wire } : {}),
      ...(onCaptured ? { onCaptured } : {}),
      ...(webhooks ? { webhooks } : {}),
    });
  } finally {
    progress.close();
  }
}

/** The agent as vitest reported it; if its suite never reported, what we judged, marked incomplete. */
function agentReport(
  target: Target,
  key: string,
  judged: ReadonlyMap<string, AgentSuiteData>,
  collected: CollectedRun | undefined,
): AgentReport {
  const reported = collected?.agents.get(key);
  if (reported) return reported;
  const data = judged.get(target.name);
  const why = `its test suite did not report (${collected?.broken.get(key) ?? 'not run'})`;
  if (!data) {
    return {
      name: sellerText(target.name, target.secrets, 200),
      index: target.index,
      transport: target.config?.transport ?? target.recorded?.agent.transport ?? 'stdio',
      protocolVersion: null,
      server: { name: null, version: null },
      adcpVersion: null,
      adcpVersionReason: null,
      layers: { validate_root: 0, legacy_wrapper: 0, missing: 0, schema: 0 },
      reachable: false,
      incomplete: why,
      aborted: null,
      durationMs: null,
      outcomes: [],
    };
  }
  return { ...data.facts, incomplete: data.facts.incomplete ?? why, outcomes: data.outcomes };
}

/** `--merge-reports DIR`: replay the blobs of sharded runs through the same reporters. */
export async function mergeRun(opts: RunOptions, blobDir: string): Promise<number> {
  const startedAt = new Date().toISOString();
  const previous = await previousReport(opts);
  // The blobs, copied into a private work directory and rewritten to name one suite root (workspace.ts).
  const work = await openMergeWork(blobDir, { keep: opts.keepWork });
  try {
    await checkOutputPaths(opts.out, undefined, opts.writeBaseline);
    const { openVitest } = await loadVitestDriver();
    const driven = await openVitest({
      root: work.root,
      dataDir: work.dataDir,
      outDir: resolve(opts.out),
      reporters: opts.reporters,
      concurrency: 1,
    });
    try {
      try {
        await driven.vitest.mergeReports(work.blobDir);
      } catch (err) {
        throw new UsageError(`--merge-reports ${blobDir}: ${err instanceof Error ? err.message : String(err)}`);
      }
      const collected = driven.collector.result;
      const agents = [...(collected?.agents.values() ?? [])];
      const problems = [...(collected?.errors ?? []), ...[...(collected?.broken ?? [])].map(([key, why]) => `suite ${key}: ${why}`)];
      // A missing shard is a partial inventory: never a verdict on the whole run.
      if (collected?.runAgents !== undefined && agents.length < collected.runAgents) {
        problems.push(`the blobs hold ${agents.length} of the run's ${collected.runAgents} agents: a shard is missing from ${blobDir}`);
      }
      const missing = missingShards(await readdir(blobDir).catch(() => []));
      if (missing) problems.push(missing);
      const run: RunProvenance = {
        startedAt,
        endedAt: new Date().toISOString(),
        ...toolVersions(),
        schemaSource: {
          kind: 'unknown',
          location: `as judged by the shards merged from ${stripUnsafe(basename(resolve(blobDir)))}`,
          versions: [],
        },
        config: null,
      };
      return await finish(
        {
          agents,
          strict: opts.strict,
          cutShort: problems.length ? problems.join('; ') : collected ? null : 'no results in the blobs',
          run,
        },
        collected,
        opts,
        driven.junitFile,
        '',
        previous,
      );
    } finally {
      await driven.vitest.close();
    }
  } finally {
    await work.dispose();
  }
}

/** `blob-<i>-<n>.json` names (vitest's default) tell which of the n shards are absent. */
export function missingShards(names: readonly string[]): string | null {
  const seen = new Map<number, Set<number>>();
  for (const name of names) {
    const m = /^blob-(\d+)-(\d+)\.json$/.exec(name);
    if (!m) continue;
    const n = Number(m[2]);
    seen.set(n, (seen.get(n) ?? new Set()).add(Number(m[1])));
  }
  for (const [n, indices] of seen) {
    const absent = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !indices.has(i));
    if (absent.length) return `shard(s) ${absent.map((i) => `${i}/${n}`).join(', ')} missing: no blob-${absent[0]}-${n}.json`;
  }
  return null;
}

async function finish(
  report: RunReport,
  collected: CollectedRun | undefined,
  opts: RunOptions,
  junitFile: string,
  diagnostics: string,
  previous?: PreviousReport,
): Promise<number> {
  report.agents.sort((a, b) => a.index - b.index || a.name.localeCompare(b.name));
  report.failOn = opts.failOn ?? 'any';
  if (previous) report.comparison = compareReports(previous, report);
  // One summary for every form the run renders (terminal, summary.md, report.html).
  const summary = summarize(report);
  const written = await writeReports(report, collected?.junit ?? [], resolve(opts.out), opts.reporters, junitFile, process.env, summary);
  if (opts.reporters.has('summary')) {
    const paint = paintFor(process.stdout, process.env);
    // The report files are listed inside the summary, so its gate line stays the last line printed.
    process.stdout.write(renderTerminalSummary(report, paint, { quiet: opts.quiet === true, reports: written, summary }));
  }
  if (diagnostics) process.stderr.write(`vitest output:\n${diagnostics}\n`);
  if (opts.writeBaseline !== undefined) {
    await writeFileAtomically(resolve(opts.writeBaseline), await renderBaselineYaml(report));
    process.stderr.write(`baseline written: ${opts.writeBaseline}\n`);
  }
  for (const e of report.agents.flatMap((a) => a.configErrors ?? [])) process.stderr.write(`adcp-conformance run: ${e}\n`);
  opts.onReport?.(report);
  return gateExitCode(report);
}

/** What the run was measured against: the tools' versions, the schema source and the config. */
async function provenance(
  startedAt: string,
  source: SchemaSource,
  opts: RunOptions,
  corpusVersion?: string | null,
): Promise<RunProvenance> {
  let versions: string[] = [];
  try {
    versions = await source.versions();
  } catch {
    // an unreachable source: its versions are unknown (the schema checks say so)
  }
  return {
    startedAt,
    endedAt: new Date().toISOString(),
    ...toolVersions(),
    schemaSource: { kind: source.kind, location: stripUnsafe(source.label), versions, trees: await treeProvenance(source, versions) },
    config: opts.config === undefined ? null : stripUnsafe(basename(opts.config)),
    ...(opts.storyboards === undefined
      ? {}
      : {
          storyboards: {
            selection: stripUnsafe(opts.storyboards),
            corpusVersion: corpusVersion ?? 'unknown',
            strict: opts.strictStoryboards === true,
          },
        }),
  };
}

/** Version → where its tree comes from (`shipped adcp-schemas 3.1.19 from adcontextprotocol/adcp@…`). */
async function treeProvenance(source: SchemaSource, versions: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const v of versions.slice(0, 50)) out[stripUnsafe(v)] = stripUnsafe(await source.provenance(v).catch(() => source.label));
  return out;
}

function schemasOption(value: string | undefined): SchemaSource {
  try {
    return parseSchemasOption(value, userCacheDir('schemas'));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new UsageError(message.startsWith('--schemas') ? message : `--schemas: ${message}`);
  }
}
