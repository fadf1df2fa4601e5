// The idempotency walk (sandbox agents only): a booking and its replay, the same key with another body,
// no key, a refused booking whose key the corrected booking then reuses, a malformed key, and two
// identical bookings under one key sent at once. Every buy it made the seller book is canceled at the
// end (update_media_buy canceled: true) and listed in the record's `created`. Rules:
// https://adcontextprotocol.org/docs/building/by-layer/L1/security (Idempotency).
//
// Cost on a seller that declares idempotency: 9 create_media_buy calls, then one update_media_buy per
// buy booked (3 on a conformant seller, at most MAX_CLEANUPS).
import { randomUUID } from 'node:crypto';
import type { ScenarioRecord } from '../record/exchange.ts';
import { accountFor, createMediaBuyArguments } from './probes.ts';
import { bookableProduct, capabilityFacts, isSuccess, SCENARIO, scenarioOf, STEP, successPayload } from './scenario-facts.ts';
import type { ScenarioHost } from './scenario-host.ts';
import { own } from '../json.ts';

const TOOL = 'create_media_buy';
/** Buys canceled at most (a seller booking on every step books 9; a conformant one 3). */
export const MAX_CLEANUPS = 10;
export const SANDBOX_ONLY = 'mutating probes (create_media_buy, update_media_buy) run only on agents marked `sandbox`';

/** A key the request schemas refuse (16–255 characters of A–Z a–z 0–9 _ . : -): too short. */
export const malformedKey = (): string => `short-${randomUUID().slice(0, 4)}`;
/** A product id no seller issued: the booking naming it must be refused. */
const unknownProduct = (): string => `adcp-conformance-unknown-${randomUUID().slice(0, 8)}`;

type Created = NonNullable<ScenarioRecord['created']>;

export async function idempotencyScenario(host: ScenarioHost): Promise<ScenarioRecord> {
  const name = SCENARIO.idempotency;
  if (!host.agent.sandbox) return { name, status: 'not-applicable', reason: SANDBOX_ONLY };
  if (!host.listed.has(TOOL)) return { name, status: 'not-applicable', reason: 'the agent does not list create_media_buy' };
  const step = (s: string) => ({ name, step: s });
  const args = createMediaBuyArguments(bookableProduct(host.exchanges()), host.agent);
  const original = await host.call(TOOL, args, step(STEP.original));
  // Replays mean something only after a booking that worked, and only from a seller that says it deduplicates.
  if (original && isSuccess(original) && capabilityFacts(host.exchanges()).idempotency === 'supported') {
    await host.call(TOOL, args, step(STEP.replay));
    const packages = (args['packages'] as Array<Record<string, unknown>>).map((p, i) =>
      i === 0 ? { ...p, budget: Number(p['budget']) + 50 } : p,
    );
    await host.call(TOOL, { ...args, packages }, step(STEP.conflict));
    const { idempotency_key: _key, ...withoutKey } = args;
    await host.call(TOOL, withoutKey, step(STEP.missingKey));

    // A refusal must not take its key: the corrected request under the same key books.
    const retryKey = randomUUID();
    const unknown = (args['packages'] as Array<Record<string, unknown>>).map((p, i) =>
      i === 0 ? { ...p, product_id: unknownProduct() } : p,
    );
    const refused = await host.call(TOOL, { ...args, idempotency_key: retryKey, packages: unknown }, step(STEP.errorFirst));
    if (refused && !isSuccess(refused)) await host.call(TOOL, { ...args, idempotency_key: retryKey }, step(STEP.errorRetry));

    await host.call(TOOL, { ...args, idempotency_key: malformedKey() }, step(STEP.malformedKey));

    const twice = { ...args, idempotency_key: randomUUID() };
    await host.together([
      { tool: TOOL, args: twice, scenario: step(STEP.concurrentFirst) },
      { tool: TOOL, args: twice, scenario: step(STEP.concurrentSecond) },
    ]);
  }
  const created = await cancelBooked(host, name);
  return { name, status: 'ran', ...(created.length ? { created } : {}) };
}

/** Every buy this scenario's bookings returned (first call that named it), canceled where the seller lets it. */
async function cancelBooked(host: ScenarioHost, name: string): Promise<Created> {
  const booked = new Map<string, number>();
  host.exchanges().forEach((x, call) => {
    if (x.tool !== TOOL || scenarioOf(x)?.name !== name || !isSuccess(x)) return;
    const id = own(successPayload(x), 'media_buy_id');
    if (typeof id === 'string' && id !== '' && !booked.has(id)) booked.set(id, call);
  });
  const created: Created = [];
  let attempts = 0;
  for (const [id, call] of booked) {
    const entry = { kind: 'media_buy' as const, id, call };
    if (!host.listed.has('update_media_buy')) {
      created.push({ ...entry, cleanup: 'kept', why: 'the agent does not list update_media_buy (the task that cancels a buy)' });
      continue;
    }
    if (attempts++ >= MAX_CLEANUPS) {
      created.push({ ...entry, cleanup: 'kept', why: `more than ${MAX_CLEANUPS} buys booked: the rest were not canceled` });
      continue;
    }
    const args = { idempotency_key: randomUUID(), account: accountFor(host.agent), media_buy_id: id, canceled: true };
    const x = await host.call('update_media_buy', args, { name, step: STEP.cleanup });
    if (x && isSuccess(x)) created.push({ ...entry, cleanup: 'cleaned-up' });
    else created.push({ ...entry, cleanup: 'kept', why: x ? 'update_media_buy canceled: true was refused' : 'the session ended first' });
  }
  return created;
}
