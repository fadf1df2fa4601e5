// Flaky sellers, told apart before they are reported: every failing outcome of an answered READ-ONLY call is asked
// once more, in a fresh session (a new process for stdio, a new MCP session for HTTP), and judged again by
// the same checks. When the second answer passes, the outcome stays a failure — the seller did answer
// wrongly — but is marked `flaky`: listed apart, never a regression. Mutating calls (create_media_buy,
// sync_creatives, anything not known to be read-only) and the steps of business-rule scenarios are never
// repeated. Replays never re-verify (there is no seller to ask).
import pLimit from 'p-limit';
import { READ_ONLY_TASKS } from '../../adcp-tasks.ts';
import { captureAgent } from '../../capture/capture-agent.ts';
import type { AgentCapture, Exchange } from '../../record/exchange.ts';
import type { AgentConfig, Probe } from '../../config/types.ts';
import { failsRun } from '../../report/model.ts';
import type { SchemaSource } from '../../schemas/index.ts';
import { judgeCapture } from './judge.ts';
import type { Progress } from '../progress.ts';
import type { AgentSuiteData } from '../vitest/index.ts';

/** Extra time past `agentMs` before the harness aborts a re-verification session itself. */
const GRACE_MS = 10_000;

export interface ReverifyItem {
  config: AgentConfig;
  capture: AgentCapture;
  data: AgentSuiteData;
  index: number;
}

export interface ReverifyOptions {
  concurrency: number;
  signal: AbortSignal;
  strict: boolean;
  schemaSource: SchemaSource;
  progress?: Progress;
}

/** The calls whose failures may be asked again: failing, read-only, not a scenario step. */
export function repeatableCalls(capture: AgentCapture, data: Pick<AgentSuiteData, 'outcomes'>, strict: boolean): number[] {
  const calls = new Set<number>();
  for (const o of data.outcomes) {
    if (o.call === undefined || !failsRun(o, strict)) continue;
    const x = capture.exchanges[o.call];
    if (x && isRepeatable(x)) calls.add(o.call);
  }
  return [...calls].sort((a, b) => a - b);
}

/**
 * Failures of a call that got no answer at all: it timed out, or the connection or process went first.
 * Such a call is not asked again — a hanging seller would cost the whole timeout twice, and a second
 * silence proves nothing the first did not. An answer that broke a transport rule (past the byte cap, an
 * HTTP error status, malformed JSON-RPC) is an answer, and is asked again like any other.
 */
const UNANSWERED: ReadonlySet<string> = new Set(['timeout', 'closed', 'network', 'connect']);

/** Read-only, not a scenario step, and answered. */
function isRepeatable(x: Exchange): boolean {
  if (x.outcome.kind === 'transport-error' && UNANSWERED.has(x.outcome.failure.kind)) return false;
  return READ_ONLY_TASKS.has(x.tool) && (x as { scenario?: unknown }).scenario === undefined;
}

/** The probe that made call `i` again: the config's own probe (its arguments unredacted) or the recorded request. */
function probeOf(config: AgentConfig, capture: AgentCapture, i: number): Probe {
  const x = capture.exchanges[i]!;
  // The handshake the harness put before the config's probes is no probe of the config: indexes shift by one.
  const own = x.handshake ? undefined : config.probes?.[capture.exchanges[0]?.handshake ? i - 1 : i];
  const args = own && own.tool === x.tool ? own.arguments : x.request.arguments;
  return { tool: x.tool, arguments: args, intent: x.intent };
}

/**
 * Whether re-verification would ask anything of this agent again (the same test planReverify makes): when
 * not, its judged data is final as soon as it is judged, and its suite need not wait for the others.
 */
export function mayReverify(capture: AgentCapture, data: Pick<AgentSuiteData, 'outcomes' | 'facts'>, strict: boolean): boolean {
  return callsAskedAgain(capture, data, strict).length > 0;
}

/** The failing calls asked again: none of an agent whose session never opened or whose judging is incomplete. */
function callsAskedAgain(capture: AgentCapture, data: Pick<AgentSuiteData, 'outcomes' | 'facts'>, strict: boolean): number[] {
  return capture.initialize.ok && data.facts.incomplete === null ? repeatableCalls(capture, data, strict) : [];
}

/**
 * What asking an agent again takes, read off its capture before the session starts: the probes, and where
 * each failing call is asked. The plan holds no capture, so the first session's answers (MBs each, for a
 * large one) need not be kept while the second session parses its own.
 */
export interface ReverifyPlan {
  config: AgentConfig;
  data: AgentSuiteData;
  index: number;
  /** How many failing calls are asked again (the capabilities call may go first besides). */
  calls: number;
  probes: Probe[];
  /** Call index in the first session → its probe's index in the second. */
  again: Map<number, number>;
}

/** The plan for an agent with failing read-only calls; undefined when nothing is asked again. */
export function planReverify(item: ReverifyItem, strict: boolean): ReverifyPlan | undefined {
  const { config, capture, data, index } = item;
  const calls = callsAskedAgain(capture, data, strict);
  if (!calls.length) return undefined;
  // The capabilities call goes first again when the first session made it: it decides the AdCP version judged.
  const probes: Probe[] = [];
  const again = new Map<number, number>();
  const caps = capture.exchanges.findIndex((x) => x.tool === 'get_adcp_capabilities' && x.intent === 'valid' && isRepeatable(x));
  if (caps >= 0 && !calls.includes(caps)) probes.push(probeOf(config, capture, caps));
  for (const c of calls) {
    again.set(c, probes.length);
    probes.push(probeOf(config, capture, c));
  }
  return { config, data, index, calls: calls.length, probes, again };
}

/** Marks `flaky` on every failing outcome of a repeatable call whose second answer passed. Never throws. */
export async function reverifyFailures(plans: readonly ReverifyPlan[], opts: ReverifyOptions): Promise<void> {
  const limit = pLimit(opts.concurrency);
  await Promise.all(
    plans.map((plan) =>
      limit(() =>
        reverifyAgent(plan, opts).catch(() => opts.progress?.update(plan.config.name, 're-verify: harness error, nothing marked flaky')),
      ),
    ),
  );
}

async function reverifyAgent(plan: ReverifyPlan, opts: ReverifyOptions): Promise<void> {
  const { config, data, probes, again } = plan;
  if (opts.signal.aborted) return;
  opts.progress?.update(config.name, `re-verify: ${plan.calls} failing read-only call(s) in a fresh session`);
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(config.timeouts.agentMs + GRACE_MS)]);
  // No webhook receiver: the calls asked again are reads, judged on their answers alone.
  const second = await captureAgent({ ...config, probes }, { signal, scenarios: false, webhooks: false });
  if (opts.signal.aborted) return;
  // Should the second session have put the handshake first itself, every call sits one place later.
  const shift = second.exchanges[0]?.handshake ? 1 : 0;
  const failing = data.outcomes.filter((o) => o.call !== undefined && again.has(o.call) && failsRun(o, opts.strict));
  const ids = new Set(failing.map((o) => o.check));
  const judged = await judgeCapture(second, {
    index: plan.index,
    schemaSource: opts.schemaSource,
    select: (id) => ids.has(id),
    secrets: config.secrets,
    strict: opts.strict,
    signal: opts.signal,
  });
  let flaky = 0;
  for (const o of failing) {
    const j = again.get(o.call!)! + shift;
    if (judged.outcomes.some((r) => r.check === o.check && r.call === j && r.status === 'pass')) {
      o.flaky = true;
      flaky++;
    }
  }
  opts.progress?.update(config.name, `re-verified: ${flaky} flaky, ${failing.length - flaky} confirmed`);
}
