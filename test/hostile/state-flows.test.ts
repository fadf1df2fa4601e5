// Hostile sellers inside the sandbox state flows (harness/capture/media-buy-flow.ts, creative-flow.ts):
// the reference seller behind a proxy of our own (servers/flow-proxy.mjs) that never answers an update,
// answers the flows' reads with garbage, pages a list forever, or refuses every booking. Each costs the
// flow its checks — untested with the reason, never a pass — and never the run: the calls stay within the
// flows' bounds, later scenarios still run, and judging finishes.
import { describe, expect, test } from 'vitest';
import { MAX_FLOW_CALLS, MEDIA_BUY_FLOW } from '../../harness/capture/media-buy-flow.ts';
import { CREATIVE_FLOW } from '../../harness/capture/creative-flow.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import type { AgentCapture } from '../../harness/record/exchange.ts';
import { runBehindFlowProxy } from './flow-proxy.helpers.ts';

type Behaviour = 'hang-update' | 'garbage-read' | 'cursor-loop' | 'refuse-booking';

const run = (behaviour: Behaviour) => runBehindFlowProxy(`flow-${behaviour}`, behaviour, {});

const flowCalls = (c: AgentCapture, name: string) => c.exchanges.filter((x) => x.scenario?.name === name);
const of = (outcomes: Outcome[], check: string) => outcomes.filter((o) => o.check === check);
const statusOf = (outcomes: Outcome[], check: string, tool: string) => outcomes.find((o) => o.check === check && o.tool === tool)?.status;
/** Every scenario after the flows still ran: the run was not lost. */
const laterScenariosRan = (c: AgentCapture) => expect(c.scenarios?.find((s) => s.name === 'credential-in-args')?.status).toBe('ran');

describe('a hostile seller in a state flow costs that flow its checks, never the run', () => {
  test('update_media_buy never answered: the flow stops at the pause, its later checks are untested, the rest of the run goes on', async () => {
    const { capture, outcomes } = await run('hang-update');
    const calls = flowCalls(capture, MEDIA_BUY_FLOW);
    expect(calls.filter((x) => x.tool === 'update_media_buy')).toHaveLength(1);
    expect(calls.at(-1)?.outcome.kind).toBe('transport-error');
    expect(statusOf(outcomes, 'media-buy.read-after-write', 'get_media_buys (by id)')).toBe('pass');
    expect(statusOf(outcomes, 'media-buy.transitions', 'update_media_buy (pause)')).toBe('untested');
    expect(statusOf(outcomes, 'media-buy.flight-dates', 'create_media_buy (start_time in the past)')).toBe('untested');
    // The booking the flow could not cancel is listed as kept.
    expect(capture.scenarios?.find((s) => s.name === MEDIA_BUY_FLOW)?.created?.[0]).toMatchObject({ kind: 'media_buy', cleanup: 'kept' });
    expect(statusOf(outcomes, 'creative.read-after-write', 'list_creatives (after sync_creatives)')).toBe('pass');
    laterScenariosRan(capture);
  }, 120_000);

  test('reads answered with garbage: the read-backs are untested, never passed', async () => {
    const { capture, outcomes } = await run('garbage-read');
    for (const o of [...of(outcomes, 'media-buy.read-after-write'), ...of(outcomes, 'creative.read-after-write')].filter(
      (o) => o.tool.startsWith('get_') || o.tool.startsWith('list_'),
    ))
      expect(o.status, `${o.check} › ${o.tool}: ${o.message}`).toBe('untested');
    expect(statusOf(outcomes, 'media-buy.transitions', 'update_media_buy (pause)')).toBe('untested');
    // The flow still cleaned up: the cancel did not depend on a read.
    expect(capture.scenarios?.find((s) => s.name === MEDIA_BUY_FLOW)?.created?.every((c) => c.cleanup === 'cleaned-up')).toBe(true);
    laterScenariosRan(capture);
  }, 120_000);

  test('a list that always has more (fresh or repeated cursors): the walks stop at their bound, the list rules are untested', async () => {
    const { capture, outcomes } = await run('cursor-loop');
    expect(flowCalls(capture, MEDIA_BUY_FLOW).filter((x) => x.scenario?.step.startsWith('read-list-'))).toHaveLength(3);
    expect(flowCalls(capture, CREATIVE_FLOW).filter((x) => x.tool === 'list_creatives').length).toBeLessThanOrEqual(4);
    expect(statusOf(outcomes, 'media-buy.read-after-write', 'get_media_buys (account list)')).toBe('untested');
    expect(statusOf(outcomes, 'creative.read-after-write', 'list_creatives (after sync_creatives)')).toBe('untested');
    expect(flowCalls(capture, MEDIA_BUY_FLOW).length).toBeLessThanOrEqual(MAX_FLOW_CALLS);
    laterScenariosRan(capture);
  }, 120_000);

  test('every booking refused: the flow stops after it, and no media-buy rule passes or fails', async () => {
    const { capture, outcomes } = await run('refuse-booking');
    expect(flowCalls(capture, MEDIA_BUY_FLOW)).toHaveLength(1);
    const judged = outcomes.filter((o) => o.check.startsWith('media-buy.'));
    expect(judged.length).toBeGreaterThan(0);
    for (const o of judged) expect(o.status, `${o.check} › ${o.tool}: ${o.message}`).toBe('untested');
    expect(capture.scenarios?.find((s) => s.name === MEDIA_BUY_FLOW)?.created).toEqual([]);
    laterScenariosRan(capture);
  }, 120_000);
});
