// A hostile AdCP test controller inside the task-lifecycle flow (harness/capture/task-flow.ts): the
// reference seller with --test-controller behind a proxy of our own (servers/flow-proxy.mjs) whose
// comply_test_controller answers garbage, refuses, or never answers. Before the booking, the flow falls
// back to the guaranteed-product path and says so; after it, the flow stops following the task and the
// rule it could not verify is untested with the reason — never a pass, never a crash, the run goes on.
import { describe, expect, test } from 'vitest';
import { TASK_FLOW } from '../../harness/capture/task-flow.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { runBehindFlowProxy } from './flow-proxy.helpers.ts';

type Behaviour = 'list-garbage' | 'refuse-arm' | 'garbage-completion' | 'hang-completion';

const run = (behaviour: Behaviour) => runBehindFlowProxy(`controller-${behaviour}`, behaviour, { testController: true });

const steps = (c: AgentCapture) => c.exchanges.filter((x) => x.scenario?.name === TASK_FLOW).map((x) => x.scenario!.step);
const recordOf = (c: AgentCapture) => c.scenarios?.find((s) => s.name === TASK_FLOW);
const taskStatuses = (outcomes: Outcome[]) =>
  Object.fromEntries(outcomes.filter((o) => o.check.startsWith('task.')).map((o) => [o.check, o.status]));
/** The scenarios after the flow still ran: the run was not lost. */
const laterScenariosRan = (c: AgentCapture) => expect(c.scenarios?.find((s) => s.name === 'credential-in-args')?.status).toBe('ran');

describe('a hostile test controller costs the controller path, never the run', () => {
  test('list_scenarios answered with garbage: the flow falls back to the guaranteed product and says why', async () => {
    const { capture, outcomes } = await run('list-garbage');
    expect(steps(capture)[0]).toBe('list-scenarios');
    expect(steps(capture)[1]).toBe('book');
    expect(recordOf(capture)).toMatchObject({
      status: 'ran',
      reason: expect.stringMatching(/^guaranteed-product path \(comply_test_controller list_scenarios answered/),
    });
    expect(taskStatuses(outcomes)).toEqual({ 'task.submitted': 'pass', 'task.polling': 'pass', 'task.replay': 'pass' });
    laterScenariosRan(capture);
  }, 120_000);

  test('force_create_media_buy_arm refused: the fallback books the guaranteed product; no forced task_id is held against it', async () => {
    const { capture, outcomes } = await run('refuse-arm');
    expect(steps(capture).slice(0, 3)).toEqual(['list-scenarios', 'force-arm', 'book']);
    expect(recordOf(capture)?.reason).toMatch(
      /^guaranteed-product path \(comply_test_controller force_create_media_buy_arm answered an error \("FORBIDDEN"\)\)/,
    );
    expect(taskStatuses(outcomes)).toEqual({ 'task.submitted': 'pass', 'task.polling': 'pass', 'task.replay': 'pass' });
    laterScenariosRan(capture);
  }, 120_000);

  test('force_task_completion answered with garbage: no more polls, task.polling untested with the reason', async () => {
    const { capture, outcomes } = await run('garbage-completion');
    expect(steps(capture)).toEqual(['list-scenarios', 'force-arm', 'book', 'poll-1', 'force-completion', 'replay']);
    expect(recordOf(capture)?.reason).toMatch(/force_task_completion answered success "maybe".*: the task was not completed$/);
    expect(taskStatuses(outcomes)).toEqual({ 'task.submitted': 'pass', 'task.polling': 'untested', 'task.replay': 'pass' });
    expect(outcomes.find((o) => o.check === 'task.polling')?.message).toMatch(/the test controller did not complete the task/);
    laterScenariosRan(capture);
  }, 120_000);

  test('force_task_completion never answered: one call timeout, then the flow goes on without it', async () => {
    const { capture, outcomes } = await run('hang-completion');
    expect(steps(capture).slice(0, 5)).toEqual(['list-scenarios', 'force-arm', 'book', 'poll-1', 'force-completion']);
    expect(recordOf(capture)?.reason).toMatch(/force_task_completion answered no answer/);
    expect(taskStatuses(outcomes)['task.polling']).toBe('untested');
    expect(taskStatuses(outcomes)['task.submitted']).toBe('pass');
    laterScenariosRan(capture);
  }, 120_000);
});
