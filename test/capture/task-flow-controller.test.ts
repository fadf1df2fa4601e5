// The task-lifecycle flow (harness/capture/task-flow.ts) through the AdCP compliance test controller, live
// against the reference seller started with `--test-controller` over stdio and HTTP: list_scenarios, the
// submitted arm forced with the harness's task_id, a booking answered with it verbatim, a poll, the forced
// completion, polls to completed with the forced result, the replay, the cancel — every task.* and
// webhook.* check passing. The test-controller-task-id-ignored fault fails task.submitted alone. The
// controller's answers validate against AdCP 3.1's comply-test-controller-response.json (../shared).
import { dirname } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import {
  FORCED_MEDIA_BUY_PREFIX,
  FORCED_TASK_ID_PREFIX,
  pollNumber,
  TASK_FLOW,
  TEST_CONTROLLER_TOOL,
} from '../../harness/capture/task-flow.ts';
import { judgeAgent } from '../../harness/checks/engine.ts';
import type { Outcome } from '../../harness/checks/check.ts';
import { DEFAULT_MAX_BYTES } from '../../harness/config/index.ts';
import type { AgentConfig, Timeouts } from '../../harness/config/types.ts';
import { loadWebhookKeys, type WebhookKeys } from '../../harness/config/webhook-keys.ts';
import type { AgentCapture, Exchange } from '../../harness/record/exchange.ts';
import { createSchemaService, dirSchemaSource, sdkSchemaSource } from '../../harness/schemas/index.ts';
import { compositeSchemaSource } from '../../harness/schemas/source.ts';
import { REFERENCE_WEBHOOK_JWKS, startHttpSeller, stdioSellerCommand } from '../../sellers/launch.ts';
import { capture as schemaCapture, NO_SHARED, NO_SHARED_MESSAGE, SHARED_SCHEMAS } from '../schemas/helpers.ts';
import { openSession, probeArguments, type SellerSession } from '../sellers/client.ts';

const timeouts: Timeouts = { connectMs: 20_000, callMs: 8_000, agentMs: 90_000 };
type Json = Record<string, unknown>;

function webhookKeys(): WebhookKeys {
  const keys = loadWebhookKeys(REFERENCE_WEBHOOK_JWKS, dirname(REFERENCE_WEBHOOK_JWKS));
  if ('problem' in keys) throw new Error(keys.problem);
  return keys;
}

const common = {
  timeouts,
  production: false,
  sandbox: true,
  maxBytes: DEFAULT_MAX_BYTES,
  secrets: [] as string[],
};

function stdio(faults: string[] = [], testController = true): AgentConfig {
  const { command, args } = stdioSellerCommand({ faults, testController });
  return { ...common, name: 'ref', transport: 'stdio', command, args, env: {}, webhookKeys: webhookKeys() };
}

const sellers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(sellers.map((s) => s.close()));
});

async function http(): Promise<AgentConfig> {
  const seller = await startHttpSeller({ testController: true });
  sellers.push(seller);
  return { ...common, name: 'ref-http', transport: 'http', url: seller.url, headers: {}, webhookKeys: webhookKeys() };
}

const flowSteps = (c: AgentCapture) => c.exchanges.filter((x) => x.scenario?.name === TASK_FLOW);
const stepNames = (c: AgentCapture) => flowSteps(c).map((x) => x.scenario!.step);
const structured = (x: Exchange | undefined): Json =>
  ((x?.outcome as { result?: { structuredContent?: Json } } | undefined)?.result?.structuredContent ?? {}) as Json;
const stepOf = (c: AgentCapture, step: string) => flowSteps(c).find((x) => x.scenario!.step === step);

async function judged(c: AgentCapture): Promise<Outcome[]> {
  const schemas = await createSchemaService(c, sdkSchemaSource());
  return judgeAgent(c, { schemas, agent: c.agent });
}
const statusesOf = (outcomes: Outcome[], prefix: string): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  for (const o of outcomes) if (o.check.startsWith(prefix)) (out[o.check] ??= []).push(o.status);
  return out;
};
const failing = (outcomes: Outcome[]) =>
  outcomes.filter((o) => o.status === 'fail' || o.status === 'warn').map((o) => `${o.check} ${o.tool}`);

describe('the task-lifecycle flow through the test controller (reference seller --test-controller)', () => {
  test.for(['stdio', 'http'] as const)(
    '%s: the forced task_id is answered verbatim, completed with the forced result, replayed, canceled; task.* and webhook.* pass',
    { timeout: 120_000 },
    async (transport) => {
      const capture = await captureAgent(transport === 'stdio' ? stdio() : await http());
      const names = stepNames(capture);
      expect(names.slice(0, 3)).toEqual(['list-scenarios', 'force-arm', 'book']);
      expect(names.slice(3, 5)).toEqual(['poll-1', 'force-completion']);
      expect(names.slice(-2)).toEqual(['replay', 'cleanup']);
      const record = capture.scenarios?.find((r) => r.name === TASK_FLOW);
      expect(record?.reason).toMatch(/^controller path/);

      expect(structured(stepOf(capture, 'list-scenarios'))).toMatchObject({
        success: true,
        scenarios: expect.arrayContaining(['force_create_media_buy_arm', 'force_task_completion']),
      });
      const forceArm = stepOf(capture, 'force-arm')!;
      const forcedId = (forceArm.request.arguments['params'] as Json)['task_id'] as string;
      expect(forcedId.startsWith(FORCED_TASK_ID_PREFIX)).toBe(true);
      expect(forcedId.length).toBeLessThanOrEqual(128);
      expect(forceArm.request.arguments['account']).toMatchObject({ sandbox: true });
      expect(structured(forceArm)).toMatchObject({ success: true, forced: { arm: 'submitted', task_id: forcedId } });

      // Any bookable product: the controller, not the product, makes it async (the first product is non-guaranteed).
      expect(structured(stepOf(capture, 'book'))).toMatchObject({ status: 'submitted', task_id: forcedId });
      expect(structured(stepOf(capture, 'poll-1'))).toMatchObject({ status: 'submitted', task_id: forcedId });
      const completion = stepOf(capture, 'force-completion')!;
      const result = (completion.request.arguments['params'] as Json)['result'] as Json;
      expect(String(result['media_buy_id']).startsWith(FORCED_MEDIA_BUY_PREFIX)).toBe(true);
      expect(structured(completion)).toMatchObject({ success: true, previous_state: 'submitted', current_state: 'completed' });
      const polls = flowSteps(capture).filter((x) => pollNumber(x.scenario!.step) !== null);
      expect(structured(polls.at(-1))).toMatchObject({ status: 'completed', task_id: forcedId, result });
      expect(structured(stepOf(capture, 'replay'))).toMatchObject({ status: 'submitted', task_id: forcedId, replayed: true });
      // The forced buy is addressable: the clean-up cancels it.
      expect(stepOf(capture, 'cleanup')!.request.arguments).toMatchObject({ media_buy_id: result['media_buy_id'], canceled: true });
      expect(record?.created).toEqual([expect.objectContaining({ kind: 'media_buy', id: result['media_buy_id'], cleanup: 'cleaned-up' })]);

      // The completion reached the receiver, signed, with the forced result.
      const deliveries = capture.webhooks?.deliveries ?? [];
      const completed = deliveries.map((d) => JSON.parse(d.body ?? '{}') as Json).find((b) => b['status'] === 'completed');
      expect(completed).toMatchObject({ task_id: forcedId, result });

      const outcomes = await judged(capture);
      expect(statusesOf(outcomes, 'task.')).toEqual({ 'task.submitted': ['pass'], 'task.polling': ['pass'], 'task.replay': ['pass'] });
      const webhook = statusesOf(outcomes, 'webhook.');
      expect(webhook['webhook.delivery']).toEqual(['pass']);
      expect(webhook['webhook.signature']?.length).toBeGreaterThan(0);
      expect(new Set(webhook['webhook.signature'])).toEqual(new Set(['pass']));
      // The whole run stays clean: the controller's own answers break no rule.
      expect(failing(outcomes)).toEqual([]);
    },
  );

  test('without --test-controller the flow books a guaranteed product, as before', async () => {
    const capture = await captureAgent(stdio([], false));
    expect(stepNames(capture)[0]).toBe('book');
    expect(capture.scenarios?.find((r) => r.name === TASK_FLOW)?.reason).toMatch(
      /^guaranteed-product path \(the agent does not list comply_test_controller\)/,
    );
    expect(capture.toolsList?.ok && capture.toolsList.tools.some((t) => (t as Json)['name'] === TEST_CONTROLLER_TOOL)).toBe(false);
  }, 90_000);

  test('a seller not marked sandbox never lists the controller, --test-controller or not', async () => {
    const { command, args } = stdioSellerCommand({ sandbox: false, testController: true });
    const capture = await captureAgent({ ...common, sandbox: false, name: 'prod', transport: 'stdio', command, args, env: {} });
    expect(capture.toolsList?.ok && capture.toolsList.tools.map((t) => (t as Json)['name'])).not.toContain(TEST_CONTROLLER_TOOL);
  }, 60_000);

  test('test-controller-task-id-ignored: the booking answers a task_id of its own; task.submitted alone fails', async () => {
    const capture = await captureAgent(stdio(['test-controller-task-id-ignored'], false));
    const forcedId = (stepOf(capture, 'force-arm')!.request.arguments['params'] as Json)['task_id'];
    const answered = structured(stepOf(capture, 'book'))['task_id'];
    expect(answered).toEqual(expect.any(String));
    expect(answered).not.toBe(forcedId);
    const outcomes = await judged(capture);
    expect(statusesOf(outcomes, 'task.')).toEqual({ 'task.submitted': ['fail'], 'task.polling': ['pass'], 'task.replay': ['pass'] });
    expect(failing(outcomes)).toEqual(['task.submitted create_media_buy (guaranteed)']);
  }, 90_000);
});

describe.skipIf(NO_SHARED)(`the controller's answers against AdCP 3.1.19${NO_SHARED ? ` — skipped: ${NO_SHARED_MESSAGE}` : ''}`, () => {
  test('list_scenarios, force_create_media_buy_arm, force_task_completion and the forced result validate', async () => {
    const capture = await captureAgent(stdio());
    const service = await createSchemaService(schemaCapture({ adcpVersion: '3.1' }), dirSchemaSource(SHARED_SCHEMAS));
    for (const step of ['list-scenarios', 'force-arm', 'force-completion']) {
      expect(service.validateAdcpResponse(TEST_CONTROLLER_TOOL, structured(stepOf(capture, step))), step).toEqual({ errors: [] });
    }
    const result = (stepOf(capture, 'force-completion')!.request.arguments['params'] as Json)['result'] as Json;
    expect(service.validateAdcpResponse('create_media_buy', result)).toEqual({ errors: [] });
    expect(service.validateAdcpResponse('create_media_buy', structured(stepOf(capture, 'book')))).toEqual({ errors: [] });

    // Judged at 3.1.19 as a run would judge it: the controller path breaks no rule there either.
    const at31 = await createSchemaService(capture, compositeSchemaSource([dirSchemaSource(SHARED_SCHEMAS), sdkSchemaSource()]));
    expect(at31.adcpVersion.version).toBe('3.1.19');
    const outcomes = judgeAgent(capture, { schemas: at31, agent: capture.agent });
    expect(failing(outcomes)).toEqual([]);
    expect(statusesOf(outcomes, 'task.')).toEqual({ 'task.submitted': ['pass'], 'task.polling': ['pass'], 'task.replay': ['pass'] });
  }, 90_000);

  test('a controller refusal is a valid ControllerError too', async () => {
    const session = await openSession('stdio', { testController: true });
    try {
      const service = await createSchemaService(schemaCapture({ adcpVersion: '3.1' }), dirSchemaSource(SHARED_SCHEMAS));
      const refused = await session.call(TEST_CONTROLLER_TOOL, {
        scenario: 'force_task_completion',
        params: { task_id: 'no-such-task', result: {} },
        account: { operator: 'buyer.example', sandbox: true },
      });
      expect(service.validateAdcpResponse(TEST_CONTROLLER_TOOL, refused['structuredContent'] as Json)).toEqual({ errors: [] });
    } finally {
      await session.close();
    }
  }, 30_000);
});

describe("the reference seller's controller: its refusals and the input-required arm", () => {
  let session: SellerSession;
  const account = { brand: { domain: 'buyer.example' }, operator: 'buyer.example', sandbox: true };
  const control = async (scenario: string, params?: Json) =>
    session.call(TEST_CONTROLLER_TOOL, { scenario, ...(params ? { params } : {}), account });
  const sc = (r: Json) => r['structuredContent'] as Json;
  afterAll(async () => session?.close());

  test('NOT_FOUND, INVALID_PARAMS, INVALID_TRANSITION and UNKNOWN_SCENARIO: a ControllerError and an AdCP error at once', async () => {
    session = await openSession('stdio', { testController: true });
    const unknown = await control('force_task_completion', { task_id: 'no-such-task', result: { media_buy_id: 'x', packages: [] } });
    expect(unknown['isError']).toBe(true);
    expect(sc(unknown)).toMatchObject({ success: false, error: 'NOT_FOUND', adcp_error: { code: 'REFERENCE_NOT_FOUND' } });
    expect(sc(await control('force_create_media_buy_arm', { arm: 'submitted' }))).toMatchObject({
      success: false,
      error: 'INVALID_PARAMS',
      adcp_error: { code: 'VALIDATION_ERROR', field: 'params.task_id' },
    });
    expect(sc(await control('force_create_media_buy_arm', { arm: 'submitted', task_id: 'x'.repeat(129) }))).toMatchObject({
      error: 'INVALID_PARAMS',
    });
    expect(sc(await control('force_create_media_buy_arm', { arm: 'elsewhere' }))).toMatchObject({ error: 'INVALID_PARAMS' });
    expect(sc(await control('simulate_delivery', { media_buy_id: 'x' }))).toMatchObject({ error: 'UNKNOWN_SCENARIO' });

    // A forced task: a bad result is refused and leaves it open; a good one completes it; a second one is a terminal task's.
    expect(sc(await control('force_create_media_buy_arm', { arm: 'submitted', task_id: 'forced-1', message: 'IO pending' }))).toMatchObject(
      {
        success: true,
        forced: { arm: 'submitted', task_id: 'forced-1' },
      },
    );
    const book = sc(await session.call('create_media_buy', { ...probeArguments('create_media_buy', 'forced-1'), account }));
    expect(book).toMatchObject({ status: 'submitted', task_id: 'forced-1', message: 'IO pending' });
    // Consumed: the next booking is the seller's default (this product books at once).
    expect(sc(await session.call('create_media_buy', { ...probeArguments('create_media_buy', 'after'), account }))['status']).toBe(
      'completed',
    );
    expect(sc(await control('force_task_completion', { task_id: 'forced-1', result: { packages: [] } }))).toMatchObject({
      error: 'INVALID_PARAMS',
      adcp_error: { field: 'params.result.media_buy_id' },
    });
    const result = { media_buy_id: 'mb-forced-1', packages: [{ package_id: 'p1' }] };
    expect(sc(await control('force_task_completion', { task_id: 'forced-1', result }))).toMatchObject({
      success: true,
      previous_state: 'submitted',
      current_state: 'completed',
    });
    expect(sc(await session.call('tasks/get', { task_id: 'forced-1', include_result: true, account }))).toMatchObject({
      status: 'completed',
      result,
    });
    expect(sc(await control('force_task_completion', { task_id: 'forced-1', result }))).toMatchObject({
      success: false,
      error: 'INVALID_TRANSITION',
      current_state: 'completed',
      adcp_error: { code: 'INVALID_STATE' },
    });
    // Another account does not see the task.
    const other = await session.call(TEST_CONTROLLER_TOOL, {
      scenario: 'force_task_completion',
      params: { task_id: 'forced-1', result },
      account: { account_id: 'someone-else', sandbox: true },
    });
    expect(sc(other)).toMatchObject({ error: 'NOT_FOUND' });
  }, 60_000);

  test('the input-required arm: the next booking answers input-required with its errors', async () => {
    expect(sc(await control('force_create_media_buy_arm', { arm: 'input-required', message: 'Sign the IO' }))).toMatchObject({
      success: true,
      forced: { arm: 'input-required' },
    });
    const book = sc(await session.call('create_media_buy', { ...probeArguments('create_media_buy', 'input'), account }));
    expect(book).toMatchObject({ status: 'input-required', message: 'Sign the IO', errors: [{ code: 'IO_REQUIRED' }] });
    expect(book['task_id']).toBeUndefined();
  }, 30_000);
});
