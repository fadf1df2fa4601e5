// The reference seller's async path (sellers/reference/tasks.ts), live over stdio and HTTP: a guaranteed
// booking answers `submitted` with a task_id, the polling tool (tasks/get and its alias get_task_status)
// follows it to `completed`, the terminal result is the create_media_buy answer (valid against the AdCP
// 3.0 response schema), a replay under the key returns the original submitted answer; non-guaranteed
// bookings stay synchronous.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatErrors, loadTree, responseErrors } from './adcp-schemas.ts';
import { openSession, probeArguments, type Mode, type SellerSession } from './client.ts';

type Json = Record<string, unknown>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A booking of the guaranteed product (sports_video_premium). */
function guaranteedBooking(id: string): Json {
  const args = probeArguments('create_media_buy', id);
  return { ...args, packages: [{ product_id: 'sports_video_premium', pricing_option_id: 'video_cpm_fixed', budget: 5000 }] };
}

/** The AdCP 3.0 tasks-get-response.json validator (core/, not in the task index). */
function tasksGetErrors(payload: unknown): string[] {
  const tree = loadTree('3.0');
  const id = (JSON.parse(readFileSync(path.join(tree.dir, 'core', 'tasks-get-response.json'), 'utf8')) as { $id: string }).$id;
  const validate = tree.ajv.getSchema(id)!;
  return validate(payload) ? [] : formatErrors(validate.errors).split('\n');
}

describe.each<Mode>(['stdio', 'json'])('async create_media_buy over %s', (mode) => {
  let session: SellerSession;
  beforeAll(async () => {
    session = await openSession(mode, { sandbox: true });
  }, 30_000);
  afterAll(async () => {
    await session?.close();
  });
  const sc = async (tool: string, args: Json): Promise<Json> => (await session.call(tool, args))['structuredContent'] as Json;

  test('both polling names are listed, each taking task_id', async () => {
    const tools = await session.listTools();
    for (const name of ['tasks/get', 'get_task_status']) {
      const tool = tools.find((t) => t['name'] === name);
      expect(tool?.['inputSchema']).toMatchObject({ required: ['task_id'] });
    }
  });

  test('a guaranteed booking is submitted with a task_id, then polled to completed with the buy as result', async () => {
    const submitted = await sc('create_media_buy', guaranteedBooking(`${mode}-async`));
    expect(submitted).toMatchObject({ status: 'submitted', task_id: expect.any(String) });
    expect(submitted).not.toHaveProperty('media_buy_id');
    expect(responseErrors(loadTree('3.0'), 'create_media_buy', submitted)).toEqual([]);
    const taskId = submitted['task_id'] as string;

    // Still pending (a loaded machine may already see it finished): no result before completion.
    const early = await sc('tasks/get', { task_id: taskId, include_result: true });
    expect(['submitted', 'working', 'completed']).toContain(early['status']);
    if (early['status'] !== 'completed') expect(early).not.toHaveProperty('result');

    await sleep(450);
    const done = await sc('tasks/get', { task_id: taskId, include_result: true, context: { correlation_id: 'poll' } });
    expect(done).toMatchObject({ task_id: taskId, task_type: 'create_media_buy', protocol: 'media-buy', status: 'completed' });
    expect(done['context']).toEqual({ correlation_id: 'poll' });
    expect(tasksGetErrors(done)).toEqual([]);
    const result = done['result'] as Json;
    expect(result).toMatchObject({ status: 'completed', media_buy_id: expect.any(String), packages: [expect.any(Object)] });
    expect(responseErrors(loadTree('3.0'), 'create_media_buy', result)).toEqual([]);

    // Without include_result: the status only. The alias answers the same.
    expect(await sc('tasks/get', { task_id: taskId })).not.toHaveProperty('result');
    const alias = await sc('get_task_status', { task_id: taskId, include_result: true });
    expect(alias).toMatchObject({ status: 'completed', result: { media_buy_id: result['media_buy_id'] } });

    // The booked buy is there to read and cancel.
    const read = await sc('get_media_buys', { media_buy_ids: [result['media_buy_id']] });
    expect((read['media_buys'] as Json[])[0]).toMatchObject({ media_buy_id: result['media_buy_id'] });
  });

  test('a replay under the key returns the original submitted answer and task_id, even once the task completed', async () => {
    const args = guaranteedBooking(`${mode}-replay`);
    const first = await sc('create_media_buy', args);
    await sleep(400);
    const again = await sc('create_media_buy', { ...args, context: { correlation_id: 'retry' } });
    expect(again).toMatchObject({ status: 'submitted', task_id: first['task_id'], replayed: true });
    expect(again).not.toHaveProperty('media_buy_id');
  });

  test('an unknown task, or one polled under another account, is REFERENCE_NOT_FOUND', async () => {
    const unknown = await session.call('tasks/get', { task_id: 'task_nope' });
    expect(unknown['isError']).toBe(true);
    expect((unknown['structuredContent'] as Json)['adcp_error']).toMatchObject({ code: 'REFERENCE_NOT_FOUND', field: 'task_id' });
    const submitted = await sc('create_media_buy', guaranteedBooking(`${mode}-acct`));
    const other = await session.call('tasks/get', { task_id: submitted['task_id'], account: { account_id: 'someone-else' } });
    expect(other['isError']).toBe(true);
    const missing = await session.call('tasks/get', { include_result: true });
    expect((missing['structuredContent'] as Json)['adcp_error']).toMatchObject({ code: 'VALIDATION_ERROR', field: 'task_id' });
  });

  test('a non-guaranteed booking still completes synchronously', async () => {
    const done = await sc('create_media_buy', probeArguments('create_media_buy', `${mode}-sync`));
    expect(done).toMatchObject({ status: 'completed', media_buy_id: expect.any(String) });
    expect(done).not.toHaveProperty('task_id');
  });
});
