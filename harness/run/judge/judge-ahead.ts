// Judging an agent as soon as its session ends, while the other agents are still being probed: on a run
// of many agents the judging then overlaps the probing (network waits) instead of following it. Jobs run
// one at a time, in the order the sessions end (the sandbox reuses one warm worker for all of them); the
// run then takes each agent's result in its own order. A result taken before it was started ahead is
// judged then, in the same queue. Judging never throws (judgeCaptureIsolated), so neither does this.
import type { AgentCapture } from '../../record/exchange.ts';
import type { AgentSuiteData } from '../vitest/index.ts';

export class JudgeAhead {
  private queue: Promise<unknown>;
  private readonly started = new WeakMap<AgentCapture, Promise<AgentSuiteData>>();

  /** `after`: what the first job waits for (the judge worker warming up). */
  constructor(after: Promise<unknown> = Promise.resolve()) {
    this.queue = after.catch(() => undefined);
  }

  /** Queue the judging of a capture whose session just ended. */
  start(capture: AgentCapture, judge: () => Promise<AgentSuiteData>): void {
    if (this.started.has(capture)) return;
    this.started.set(capture, this.enqueue(judge));
  }

  /** The capture's result: the one started ahead, else judged now (after whatever is queued). */
  take(capture: AgentCapture, judge: () => Promise<AgentSuiteData>): Promise<AgentSuiteData> {
    return this.started.get(capture) ?? this.enqueue(judge);
  }

  private enqueue(judge: () => Promise<AgentSuiteData>): Promise<AgentSuiteData> {
    const job = this.queue.then(judge);
    this.queue = job.catch(() => undefined);
    return job;
  }
}
