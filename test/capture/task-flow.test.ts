// The task-lifecycle flow (harness/capture/task-flow.ts) live against the reference seller: a guaranteed
// booking answered `submitted`, polled with tasks/get + include_result until completed, replayed under its
// key, and the buy it made canceled; the task.* checks judge it. A seller whose task never finishes
// (task-never-completes) costs only the poll budget (`timeouts.task`) and fails only task.polling.
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { DEFAULT_TASK_POLL_BUDGET, pollNumber, TASK_FLOW, taskPollBudget } from '../../harness/capture/task-flow.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import type { StdioAgentConfig, Timeouts } from '../../harness/config/types.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { stdioSellerCommand } from '../../sellers/launch.ts';

const timeouts: Timeouts = { connectMs: 20_000, callMs: 8_000, agentMs: 90_000 };
type Json = Record<string, unknown>;

function stdio(faults: string[] = [], over: Partial<StdioAgentConfig> = {}): StdioAgentConfig {
  const { command, args } = stdioSellerCommand({ faults });
  return {
    name: 'ref',
    transport: 'stdio',
    command,
    args,
    env: {},
    timeouts,
    production: false,
    sandbox: true,
    maxBytes: DEFAULT_MAX_BYTES,
    secrets: [],
    ...over,
  };
}

const flowSteps = (c: AgentCapture) => c.exchanges.filter((x) => x.scenario?.name === TASK_FLOW);
const structured = (x: { outcome: unknown }): Json =>
  ((x.outcome as { result?: { structuredContent?: Json } }).result?.structuredContent ?? {}) as Json;
const taskOutcomes = (c: AgentCapture): Record<string, string> =>
  Object.fromEntries(judgeAgent(c, { agent: c.agent }).flatMap((o) => (o.check.startsWith('task.') ? [[o.check, o.status]] : [])));

describe('the task-lifecycle flow against the reference seller', () => {
  test('a guaranteed booking is submitted, polled to completed, replayed with the same task_id, and its buy canceled', async () => {
    const capture = await captureAgent(stdio());
    const steps = flowSteps(capture);
    const names = steps.map((x) => x.scenario!.step);
    expect(names[0]).toBe('book');
    expect(names.slice(-2)).toEqual(['replay', 'cleanup']);
    const polls = steps.filter((x) => pollNumber(x.scenario!.step) !== null);
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.length).toBeLessThanOrEqual(DEFAULT_TASK_POLL_BUDGET.maxPolls);

    const book = structured(steps[0]!);
    expect(book).toMatchObject({ status: 'submitted', task_id: expect.any(String) });
    expect((steps[0]!.request.arguments['packages'] as Json[])[0]).toMatchObject({ product_id: 'sports_video_premium' });
    // Every poll names the task and asks for the result; the last one carries it.
    for (const p of polls) expect(p.request.arguments).toMatchObject({ task_id: book['task_id'], include_result: true });
    expect(structured(polls.at(-1)!)).toMatchObject({ status: 'completed', result: { media_buy_id: expect.any(String) } });
    expect(structured(steps.at(-2)!)).toMatchObject({ status: 'submitted', task_id: book['task_id'], replayed: true });
    const buy = (structured(polls.at(-1)!)['result'] as Json)['media_buy_id'];
    expect(steps.at(-1)!.request.arguments).toMatchObject({ media_buy_id: buy, canceled: true });

    const record = capture.scenarios?.find((r) => r.name === TASK_FLOW);
    expect(record).toMatchObject({
      status: 'ran',
      created: [{ kind: 'media_buy', id: buy, call: capture.exchanges.indexOf(polls.at(-1)!), cleanup: 'cleaned-up' }],
    });
    // Without a schema service the terminal result is not validated: untested, never a pass (the matrix judges with schemas).
    expect(taskOutcomes(capture)).toEqual({ 'task.submitted': 'pass', 'task.polling': 'untested', 'task.replay': 'pass' });
  }, 90_000);

  test('a task that never finishes costs the poll budget (timeouts.task) and fails task.polling alone', async () => {
    const capture = await captureAgent(stdio(['task-never-completes'], { timeouts: { ...timeouts, taskMs: 1_500 } }));
    const steps = flowSteps(capture);
    const polls = steps.filter((x) => pollNumber(x.scenario!.step) !== null);
    expect(polls.length).toBeGreaterThan(1);
    for (const x of polls) expect(structured(x)['status']).toBe('working');
    // No poll starts after the budget (plus scheduling slack on a loaded machine).
    const span = Date.parse(polls.at(-1)!.startedAt) - Date.parse(polls[0]!.startedAt);
    expect(span).toBeLessThan(1_500 + 1_000);
    expect(steps.map((x) => x.scenario!.step).slice(-1)).toEqual(['replay']); // no buy seen, nothing to cancel
    expect(capture.scenarios?.find((r) => r.name === TASK_FLOW)).toMatchObject({ status: 'ran' });
    expect(taskOutcomes(capture)).toMatchObject({ 'task.submitted': 'pass', 'task.polling': 'fail', 'task.replay': 'pass' });
  }, 90_000);

  test('an agent not marked sandbox books nothing: the flow and every task rule are not applicable', async () => {
    const { args } = stdioSellerCommand({ sandbox: false });
    const capture = await captureAgent(stdio([], { sandbox: false, args }));
    expect(flowSteps(capture)).toEqual([]);
    expect(capture.scenarios?.find((r) => r.name === TASK_FLOW)).toMatchObject({ status: 'not-applicable' });
    expect(Object.values(taskOutcomes(capture))).toEqual(['not-applicable', 'not-applicable', 'not-applicable']);
  }, 60_000);
});

describe('taskPollBudget', () => {
  test('the default without timeouts.task; a configured time spreads the same polls further apart', () => {
    expect(taskPollBudget(undefined)).toEqual(DEFAULT_TASK_POLL_BUDGET);
    expect(taskPollBudget(0)).toEqual(DEFAULT_TASK_POLL_BUDGET);
    expect(taskPollBudget(60_000)).toEqual({ maxPolls: 15, maxMs: 60_000, firstDelayMs: 100, maxDelayMs: 6_000 });
    expect(taskPollBudget(50)).toMatchObject({ maxMs: 50, firstDelayMs: 50 });
  });
});
