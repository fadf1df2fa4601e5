// Probe every agent: up to `concurrency` agents at once, each agent's calls in order (captureAgent),
// each bounded by its own agent timeout plus a grace period in case a transport ignores its timers.
import { downReason } from '../capture/down-reason.ts';
import pLimit from 'p-limit';
import type { AgentCapture } from '../record/exchange.ts';
import type { AgentConfig } from '../config/types.ts';
import { agentFacts, captureAgent, type CaptureOptions } from '../capture/capture-agent.ts';
import { waitingText, type Progress } from './progress.ts';

/** Wall time of each live capture, in ms (a replayed capture has none). */
export const captureDurations = new WeakMap<AgentCapture, number>();

/** Extra time past `agentMs` before the harness aborts an agent itself. */
const GRACE_MS = 10_000;

export async function captureAll(
  agents: readonly AgentConfig[],
  opts: {
    concurrency: number;
    signal: AbortSignal;
    progress: Progress;
    wire?: (agent: AgentConfig) => CaptureOptions['onWire'];
    /** The AdCP schema trees the harness has (full versions): the pin's candidates (CaptureOptions.adcpReleases). */
    adcpReleases?: readonly string[];
    /** Told each agent's capture as soon as its session ends (the run judges it while the others are probed). */
    onCaptured?: (agent: AgentConfig, capture: AgentCapture) => void;
    /** The sandbox agents' webhook receiver options (a shared receiver under --webhook-url). */
    webhooks?: CaptureOptions['webhooks'];
  },
): Promise<AgentCapture[]> {
  const limit = pLimit(opts.concurrency);
  return Promise.all(
    agents.map((agent) =>
      limit(async () => {
        if (opts.signal.aborted) {
          opts.progress.update(agent.name, 'not probed: run interrupted');
          return notProbed(agent, 'run interrupted before this agent was probed');
        }
        const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(agent.timeouts.agentMs + GRACE_MS)]);
        const started = performance.now();
        const onWire = opts.wire?.(agent);
        const capture = await captureAgent(agent, {
          signal,
          onProgress: (e) => opts.progress.update(agent.name, e.step),
          // A slow call: its progress line says what it waits on (redrawn in place on a TTY, plain lines in a log).
          onWaiting: (e) => {
            if (!e.settled) opts.progress.update(agent.name, `waiting on ${waitingText(e)}`);
          },
          ...(opts.adcpReleases ? { adcpReleases: opts.adcpReleases } : {}),
          ...(onWire ? { onWire } : {}),
          ...(opts.webhooks !== undefined ? { webhooks: opts.webhooks } : {}),
        });
        captureDurations.set(capture, performance.now() - started);
        opts.progress.update(agent.name, summary(capture));
        opts.onCaptured?.(agent, capture);
        return capture;
      }),
    ),
  );
}

function summary(c: AgentCapture): string {
  if (!c.initialize.ok) return `unreachable: ${downReason(c)?.detail ?? c.initialize.failure.message}`;
  const calls = `${c.exchanges.length} call${c.exchanges.length === 1 ? '' : 's'}`;
  return c.aborted ? `cut short after ${calls}: ${c.aborted.kind}: ${c.aborted.message}` : `done: ${calls}`;
}

/** The capture of an agent the run never reached (interrupted first): it reports as unreachable. */
export function notProbed(agent: AgentConfig, message: string): AgentCapture {
  return {
    agent: agentFacts(agent),
    initialize: { ok: false, failure: { kind: 'connect', message } },
    exchanges: [],
  };
}
