// The media-buy lifecycle, on sandbox agents only: book a non-guaranteed buy (it must complete at once),
// read it back by id and in the account's list, pause it with its current revision, update it with the
// revision it had before (stale), resume, cancel with other fields beside `canceled`, cancel again, try
// to pause the canceled buy; then book a flight starting in the past and one ending before it starts.
// Every call is a recorded scenario step; the media-buy.* checks judge them. Bounded: at most
// MAX_FLOW_CALLS calls; a step that got no answer ends the flow; a step the later ones need (the booking,
// the pause, the cancel) that failed skips them. What the flow booked is canceled where the seller lets
// it (a wrongly accepted flight too), and listed in the record's `created`.
import { randomUUID } from 'node:crypto';
import type { Exchange, ScenarioRecord } from '../record/exchange.ts';
import { tasksNeededBy } from '../adcp-tasks.ts';
import { clip, isObject, own } from '../json.ts';
import { accountFor, createMediaBuyArguments } from './probes.ts';
import { bookableProduct, isSuccess, pageInfo, successPayload, MAX_CURSOR_CHARS } from './scenario-facts.ts';
import type { ScenarioHost } from './scenario-host.ts';

export const MEDIA_BUY_FLOW = 'media-buy-lifecycle';

export const MB_STEP = {
  book: 'book',
  readById: 'read-by-id',
  pause: 'pause',
  readPaused: 'read-paused',
  staleRevision: 'stale-revision',
  resume: 'resume',
  readResumed: 'read-resumed',
  cancel: 'cancel',
  readCanceled: 'read-canceled',
  cancelAgain: 'cancel-again',
  updateCanceled: 'update-canceled',
  pastStart: 'past-start',
  endBeforeStart: 'end-before-start',
  /** Cancels what the flow booked and did not cancel itself (`cleanup-<step that booked it>`). */
  cleanup: 'cleanup',
} as const;

/** The account's list, page n (the walk stops at the new buy, at the last page, or after MAX_LIST_PAGES). */
export const listStep = (n: number): string => `read-list-${n}`;
export const isListStep = (step: string): boolean => /^read-list-\d{1,2}$/.test(step);
export const MAX_LIST_PAGES = 3;
/** Page size of the list walk. */
export const LIST_PAGE_SIZE = 100;
/** Calls the flow makes at most (every step once, the list pages, three clean-ups). */
export const MAX_FLOW_CALLS = 20;

/**
 * The statuses the list asks for: every MediaBuyStatus that is not terminal (get_media_buys without
 * media_buy_ids defaults to `active` only, and a new buy may be pending).
 */
export const LIVE_STATUSES = ['pending_creatives', 'pending_start', 'active', 'paused'] as const;

/** Every MediaBuyStatus (enums/media-buy-status.json, 3.0 and 3.1). */
export const MEDIA_BUY_STATUSES: readonly string[] = [...LIVE_STATUSES, 'completed', 'rejected', 'canceled'];

const DAY_MS = 24 * 3600 * 1000;
/** Ids longer than this are not sent back to the seller nor kept in the record whole. */
const MAX_ID_CHARS = 256;

/** A delivery type the seller must book at once (create_media_buy.mdx 3.1: "MUST return synchronous success"). */
export const isNonGuaranteed = (product: unknown): boolean => own(product, 'delivery_type') === 'non_guaranteed';

/** The media_buy_id of a booking or update answer that succeeded, if it names one a client can send back. */
export function mediaBuyIdOf(x: Exchange | undefined): string | undefined {
  const id = x ? own(successPayload(x), 'media_buy_id') : undefined;
  return typeof id === 'string' && id !== '' && id.length <= MAX_ID_CHARS ? id : undefined;
}

/** A revision as AdCP defines it (an integer), else undefined. */
export function revisionValue(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}

/** The buy `id` in a get_media_buys answer (`media_buys[]`), if it is there. */
export function buyIn(x: Exchange | undefined, id: string): Record<string, unknown> | undefined {
  const buys = x ? own(successPayload(x), 'media_buys') : undefined;
  if (!Array.isArray(buys)) return undefined;
  const found: unknown = buys.find((b) => own(b, 'media_buy_id') === id);
  return isObject(found) ? found : undefined;
}

/** The first package of a buy (a booking answer or a get_media_buys item) with its id and budget. */
export function firstPackage(buy: unknown): { packageId: string; budget?: number } | undefined {
  const packages = own(buy, 'packages');
  const p: unknown = Array.isArray(packages) ? packages[0] : undefined;
  const packageId = own(p, 'package_id');
  const budget = own(p, 'budget');
  if (typeof packageId !== 'string' || packageId === '' || packageId.length > MAX_ID_CHARS) return undefined;
  return typeof budget === 'number' && Number.isFinite(budget) ? { packageId, budget } : { packageId };
}

type Created = NonNullable<ScenarioRecord['created']>[number];

/** A call the seller did not answer at all (a garbled answer is an answer: the flow goes on, bounded). */
export function unanswered(x: Exchange): boolean {
  return x.outcome.kind === 'transport-error' && ['timeout', 'closed', 'connect', 'network'].includes(x.outcome.failure.kind);
}

const CREATE = 'create_media_buy';
/** The tasks the flow cannot go without (the reads are optional: without get_media_buys nothing is read back). */
const NEEDED = tasksNeededBy(MEDIA_BUY_FLOW);

/** Why the state flows do not concern an agent that is not marked sandbox (the record's and the checks' reason). */
export const SANDBOX_ONLY = 'mutating flows (create_media_buy, update_media_buy, sync_creatives) run only on agents marked `sandbox`';

/** The calls of one run of the flow: bounded, stopped by a step without an answer. */
class FlowCalls {
  private count = 0;
  private dead = false;
  readonly created: Created[] = [];
  constructor(
    private readonly host: ScenarioHost,
    readonly account: Record<string, unknown>,
  ) {}

  get stopped(): boolean {
    return this.dead || this.count >= MAX_FLOW_CALLS;
  }

  async call(tool: string, args: Record<string, unknown>, step: string): Promise<Exchange | undefined> {
    if (this.stopped) return undefined;
    this.count++;
    const x = await this.host.call(tool, args, { name: MEDIA_BUY_FLOW, step });
    // No answer (timeout, crash, session over): every later call would wait as long, or fail the same way.
    if (!x || unanswered(x)) this.dead = true;
    return x;
  }

  update(mediaBuyId: string, fields: Record<string, unknown>, step: string): Promise<Exchange | undefined> {
    return this.call(
      'update_media_buy',
      { idempotency_key: randomUUID(), account: structuredClone(this.account), media_buy_id: mediaBuyId, ...fields },
      step,
    );
  }

  read(mediaBuyId: string, step: string): Promise<Exchange | undefined> {
    return this.call('get_media_buys', { account: structuredClone(this.account), media_buy_ids: [mediaBuyId] }, step);
  }

  /** Records a buy the flow made the seller create; kept until a cancel of it succeeds. */
  booked(id: string, x: Exchange): Created {
    const entry: Created = {
      kind: 'media_buy',
      id: clip(id, MAX_ID_CHARS),
      call: this.host.exchanges().indexOf(x),
      cleanup: 'kept',
      why: 'the flow ended before it could cancel it',
    };
    this.created.push(entry);
    return entry;
  }

  /** Cancels a buy the flow booked (its clean-up), unless the flow can no longer call. */
  async cleanUp(entry: Created, id: string, step: string): Promise<void> {
    const x = await this.update(id, { canceled: true, cancellation_reason: 'adcp-conformance sandbox clean-up' }, step);
    markCanceled(entry, x);
  }
}

/** The record entry after a cancel of its buy: cleaned up when the seller accepted it. */
function markCanceled(entry: Created, x: Exchange | undefined): void {
  if (x && isSuccess(x) && successPayload(x) !== null) {
    entry.cleanup = 'cleaned-up';
    delete entry.why;
  } else if (x) {
    entry.why = 'the seller did not accept its cancellation (update_media_buy canceled: true)';
  }
}

/** The revision a step's answer (an update) or read (get_media_buys) gives for the buy, if any. */
function revisionAfter(x: Exchange | undefined, id: string, read: boolean): number | undefined {
  if (!x) return undefined;
  return revisionValue(own(read ? buyIn(x, id) : successPayload(x), 'revision'));
}

/** Walks the account's list of live buys until the new one shows up (bounded pages, cursors never repeated). */
async function readList(calls: FlowCalls, id: string): Promise<void> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_LIST_PAGES; page++) {
    const pagination = cursor === undefined ? { max_results: LIST_PAGE_SIZE } : { max_results: LIST_PAGE_SIZE, cursor };
    const args = { account: structuredClone(calls.account), status_filter: [...LIVE_STATUSES], pagination };
    const x = await calls.call('get_media_buys', args, listStep(page));
    if (!x || buyIn(x, id)) return;
    const next = pageInfo(successPayload(x));
    if (next.hasMore !== true || typeof next.cursor !== 'string' || next.cursor === '' || next.cursor.length > MAX_CURSOR_CHARS) return;
    if (seen.has(next.cursor)) return;
    seen.add(next.cursor);
    cursor = next.cursor;
  }
}

/** pause → stale revision → resume: each read back; the stale update sends the revision the buy had before the pause. */
async function pauseAndResume(calls: FlowCalls, id: string, revision: number | undefined, reads: boolean): Promise<number | undefined> {
  const withRevision = (r: number | undefined): Record<string, unknown> => (r === undefined ? {} : { revision: r });
  const pause = await calls.update(id, { ...withRevision(revision), paused: true }, MB_STEP.pause);
  if (!pause || !isSuccess(pause) || successPayload(pause) === null) return revision;
  const before = revision;
  revision = revisionAfter(pause, id, false) ?? revision;
  if (reads) revision = revisionAfter(await calls.read(id, MB_STEP.readPaused), id, true) ?? revision;
  if (before !== undefined) {
    // A valid change (resume) that only the stale revision forbids: CONFLICT is the one right answer.
    const stale = await calls.update(id, { revision: before, paused: false }, MB_STEP.staleRevision);
    if (stale && isSuccess(stale)) revision = revisionAfter(stale, id, false) ?? revision;
  }
  const resume = await calls.update(id, { ...withRevision(revision), paused: false }, MB_STEP.resume);
  if (!resume || !isSuccess(resume)) return revision;
  revision = revisionAfter(resume, id, false) ?? revision;
  if (reads) revision = revisionAfter(await calls.read(id, MB_STEP.readResumed), id, true) ?? revision;
  return revision;
}

/**
 * Cancel with other fields beside `canceled` (a pause and a package budget the cancel must ignore), read
 * back; then cancel again and pause the canceled buy (no revision: only the state may refuse them).
 */
async function cancelAndAfter(
  calls: FlowCalls,
  entry: Created,
  id: string,
  revision: number | undefined,
  pkg: { packageId: string; budget?: number } | undefined,
  reads: boolean,
): Promise<void> {
  const extras: Record<string, unknown> = { paused: true };
  if (pkg) extras['packages'] = [{ package_id: pkg.packageId, budget: (pkg.budget ?? 100) + 50 }];
  const cancel = await calls.update(
    id,
    { ...(revision === undefined ? {} : { revision }), canceled: true, cancellation_reason: 'adcp-conformance sandbox flow', ...extras },
    MB_STEP.cancel,
  );
  markCanceled(entry, cancel);
  if (entry.cleanup !== 'cleaned-up') return;
  if (reads) await calls.read(id, MB_STEP.readCanceled);
  await calls.update(id, { canceled: true }, MB_STEP.cancelAgain);
  await calls.update(id, { paused: true }, MB_STEP.updateCanceled);
}

/** A booking whose flight the seller must refuse; canceled at once when it was accepted all the same. */
async function wrongFlight(calls: FlowCalls, base: Record<string, unknown>, start: number, end: number, step: string): Promise<void> {
  const args = { ...base, idempotency_key: randomUUID(), start_time: new Date(start).toISOString(), end_time: new Date(end).toISOString() };
  const x = await calls.call(CREATE, args, step);
  const id = mediaBuyIdOf(x);
  if (!x || id === undefined) return;
  await calls.cleanUp(calls.booked(id, x), id, `${MB_STEP.cleanup}-${step}`);
}

async function mediaBuyLifecycle(host: ScenarioHost): Promise<ScenarioRecord> {
  const name = MEDIA_BUY_FLOW;
  if (!host.agent.sandbox) return { name, status: 'not-applicable', reason: SANDBOX_ONLY };
  const missing = NEEDED.filter((t) => !host.listed.has(t));
  if (missing.length) return { name, status: 'not-applicable', reason: `the agent does not list ${missing.join(' or ')}` };
  const product = bookableProduct(host.exchanges(), isNonGuaranteed);
  if (!product) {
    const offered = bookableProduct(host.exchanges()) !== undefined;
    return offered
      ? { name, status: 'not-applicable', reason: 'the agent offers no non-guaranteed product (get_products): no buy it must book at once' }
      : { name, status: 'untested', reason: 'no get_products answer named a product with a pricing option to book: see its outcomes' };
  }
  const calls = new FlowCalls(host, accountFor(host.agent));
  const base = createMediaBuyArguments(product, host.agent);
  const book = await calls.call(CREATE, base, MB_STEP.book);
  const id = mediaBuyIdOf(book);
  if (!book || id === undefined) return { name, status: 'ran', created: calls.created };
  const entry = calls.booked(id, book);
  const reads = host.listed.has('get_media_buys');
  let revision = revisionAfter(book, id, false);
  let pkg = firstPackage(successPayload(book));
  if (reads) {
    const read = await calls.read(id, MB_STEP.readById);
    revision = revisionAfter(read, id, true) ?? revision;
    pkg ??= firstPackage(buyIn(read, id));
    await readList(calls, id);
  }
  revision = await pauseAndResume(calls, id, revision, reads);
  await cancelAndAfter(calls, entry, id, revision, pkg, reads);
  // Flight dates: only after a booking that worked, so a refusal can only be about the dates.
  const now = Date.now();
  await wrongFlight(calls, base, now - 2 * DAY_MS, now + 30 * DAY_MS, MB_STEP.pastStart);
  await wrongFlight(calls, base, now + 14 * DAY_MS, now + 7 * DAY_MS, MB_STEP.endBeforeStart);
  if (entry.cleanup !== 'cleaned-up' && !calls.stopped) await calls.cleanUp(entry, id, MB_STEP.cleanup);
  return { name, status: 'ran', created: calls.created };
}

export const mediaBuyLifecycleScenario = { name: MEDIA_BUY_FLOW, run: mediaBuyLifecycle };
