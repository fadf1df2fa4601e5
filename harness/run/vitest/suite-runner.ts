// The vitest test runner of the agent suites: vitest's own, minus the per-test bookkeeping for `expect`
// and snapshots (the suites call neither: a test case only replays a judged outcome), which is most of
// what a test case costs in the worker.
import { TestRunner } from 'vitest';

export default class AgentSuiteRunner extends TestRunner {
  override onBeforeTryTask(): void {}
  override onAfterTryTask(): void {}
}
