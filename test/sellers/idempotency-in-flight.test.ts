// The reference seller's idempotency layer under a race, in-process (sellers/reference/state.ts): a
// booking awaits its ad server with the key marked in flight; the same request arriving meanwhile waits
// and replays, another request under the key conflicts at once, a refusal frees the key. The two bugs
// the faults give it (no in-flight guard, cached refusals) are what the faults claim. Key format:
// sellers/reference/idempotency-key.ts.
import { describe, expect, test } from 'vitest';
import { AdcpFailure } from '../../sellers/reference/adcp-error.ts';
import { checkIdempotencyKey } from '../../sellers/reference/idempotency-key.ts';
import type { JsonObject } from '../../sellers/reference/json.ts';
import { SellerState } from '../../sellers/reference/state.ts';
import { toolSpecs, type ToolEnv } from '../../sellers/reference/tools.ts';
import { probeArguments } from './client.ts';

const create = toolSpecs.find((s) => s.name === 'create_media_buy')!;
const book = (args: JsonObject, env: ToolEnv): Promise<JsonObject> => Promise.resolve(create.run(args, env));
const envWith = (bugs: SellerState['bugs'] = {}): ToolEnv => {
  const state = new SellerState();
  state.bugs = bugs;
  return { state, sandbox: true };
};
const code = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AdcpFailure) return err.body.code;
    throw err;
  }
  return 'success';
};

describe('create_media_buy under one key, two requests at once', () => {
  test('the same request waits for the first and replays it: one buy', async () => {
    const env = envWith();
    const args = probeArguments('create_media_buy', 'race') as JsonObject;
    const [a, b] = await Promise.all([book(args, env), book({ ...args, context: { correlation_id: 'retry' } }, env)]);
    expect(b['media_buy_id']).toBe(a['media_buy_id']);
    expect([a['replayed'], b['replayed']]).toEqual([undefined, true]);
    expect(env.state.mediaBuys.size).toBe(1);
  });

  test('another request under the key conflicts at once, without waiting for the first', async () => {
    const env = envWith();
    const args = probeArguments('create_media_buy', 'race-other') as JsonObject;
    let firstDone = false;
    const first = book(args, env).then((body) => ((firstDone = true), body));
    const other = (args['packages'] as JsonObject[]).map((p) => ({ ...p, budget: Number(p['budget']) + 1 }));
    expect(await code(book({ ...args, packages: other }, env))).toBe('IDEMPOTENCY_CONFLICT');
    expect(firstDone).toBe(false); // refused while the first still waited on its ad server
    expect((await first)['media_buy_id']).toEqual(expect.any(String));
  });

  test('a refused request frees its key: the corrected one books', async () => {
    const env = envWith();
    const args = probeArguments('create_media_buy', 'refused') as JsonObject;
    const unknown = (args['packages'] as JsonObject[]).map((p) => ({ ...p, product_id: 'no-such-product' }));
    expect(await code(book({ ...args, packages: unknown }, env))).toBe('PRODUCT_NOT_FOUND');
    expect((await book(args, env))['replayed']).toBeUndefined();
    expect(env.state.mediaBuys.size).toBe(1);
  });

  test('bug noInFlightGuard (fault idempotency-concurrent-books-twice): two buys', async () => {
    const env = envWith({ noInFlightGuard: true });
    const args = probeArguments('create_media_buy', 'twice') as JsonObject;
    const [a, b] = await Promise.all([book(args, env), book(args, env)]);
    expect(a['media_buy_id']).not.toBe(b['media_buy_id']);
    expect(env.state.mediaBuys.size).toBe(2);
  });

  test('bug cacheErrors (fault idempotency-error-cached): the corrected request is refused', async () => {
    const env = envWith({ cacheErrors: true });
    const args = probeArguments('create_media_buy', 'cached') as JsonObject;
    const unknown = (args['packages'] as JsonObject[]).map((p) => ({ ...p, product_id: 'no-such-product' }));
    expect(await code(book({ ...args, packages: unknown }, env))).toBe('PRODUCT_NOT_FOUND');
    expect(await code(book({ ...args, packages: unknown }, env))).toBe('PRODUCT_NOT_FOUND');
    expect(await code(book(args, env))).toBe('IDEMPOTENCY_CONFLICT');
  });
});

describe('the idempotency_key a mutating request carries', () => {
  test.for([
    ['missing', undefined],
    ['15 characters', 'abcdefghijklmno'],
    ['256 characters', 'a'.repeat(256)],
    ['a space', 'abcdefgh ijklmnopq'],
    ['not a string', 1234567890123456],
  ] as const)('%s → INVALID_REQUEST naming the field, the key not echoed', ([, key]) => {
    const args: JsonObject = key === undefined ? {} : { idempotency_key: key };
    let body: AdcpFailure['body'] | undefined;
    try {
      checkIdempotencyKey(args);
    } catch (err) {
      if (err instanceof AdcpFailure) body = err.body;
    }
    expect(body).toMatchObject({ code: 'INVALID_REQUEST', field: 'idempotency_key', recovery: 'correctable' });
    if (typeof key === 'string') expect(JSON.stringify(body)).not.toContain(key);
  });

  test('16 and 255 characters of the allowed set, and a UUID, pass', () => {
    for (const key of ['abcdefghijklmnop', `${'a'.repeat(250)}_.:-Z`, '0f8fad5b-d9cb-469f-a165-70867728950e'])
      expect(() => checkIdempotencyKey({ idempotency_key: key })).not.toThrow();
  });
});
