// What a running seller remembers: media buys and creatives booked in this process (sandbox
// inventory, never persisted), and the idempotency cache of mutating calls with the keys still in flight.
import { AdcpFailure } from './adcp-error.ts';
import { canonicalJson, isPlainObject, type JsonObject } from './json.ts';
import type { MediaBuyRecord } from './media-buys.ts';

/** The stored buy and its lifecycle live in media-buys.ts. */
export type { MediaBuyRecord } from './media-buys.ts';

export interface CreativeRecord {
  creative_id: string;
  name: string;
  format_id: { agent_url: string; id: string };
  status: 'approved';
  created_date: string;
  updated_date: string;
}

/** Replay window declared in get_adcp_capabilities (24 h, the spec's recommendation). */
export const REPLAY_TTL_SECONDS = 86_400;
/** Bounds: a long-running seller must not grow without limit. */
const MAX_RECORDS = 1_000;

/** The ad server round trip a booking waits on: a retry can arrive while the first request is in flight. */
export const AD_SERVER_ROUND_TRIP_MS = 20;
/** The round trip of a seller without an in-flight guard (the fault that shows it): a slow ad server. */
const SLOW_AD_SERVER_ROUND_TRIP_MS = 250;

/**
 * Bugs a fault (sellers/faults) gives the idempotency layer, each what a real seller with it does:
 * `cacheErrors` stores a refusal under its key and answers it again; `noInFlightGuard` lets a request
 * whose key is still executing execute again (security.mdx rules 3 and 9 broken).
 */
export interface IdempotencyBugs {
  cacheErrors?: boolean;
  noInFlightGuard?: boolean;
}

interface CachedResponse {
  fingerprint: string;
  body: JsonObject;
  /** Only under the cacheErrors bug: a refusal stored as if it were the answer. */
  error?: AdcpFailure;
  storedAt: number;
}

/** A key whose first request is still executing: its request's fingerprint, and when it settles. */
interface InFlight {
  fingerprint: string;
  settled: Promise<void>;
}

export type IdempotentOutcome = { body: JsonObject; replayed: boolean } | { conflict: true };

export class SellerState {
  readonly mediaBuys = new Map<string, MediaBuyRecord>();
  readonly creatives = new Map<string, CreativeRecord>();
  private readonly replay = new Map<string, CachedResponse>();
  private readonly inFlight = new Map<string, InFlight>();
  private nextId = 1;
  /** Set by the server from the faults it runs with; none on a conformant seller. */
  bugs: IdempotencyBugs = {};

  newId(prefix: string): string {
    return `${prefix}_${String(this.nextId++).padStart(4, '0')}`;
  }

  /**
   * Idempotent execution: the same `idempotency_key` with the same request (context excluded: it is
   * per-call correlation data) returns the cached body; with a different request → `conflict`.
   */
  idempotent(
    tool: string,
    key: string,
    args: JsonObject,
    run: () => JsonObject,
  ): { body: JsonObject; replayed: boolean } | { conflict: true } {
    const scoped = `${tool}\u0000${key}`;
    const fingerprint = requestFingerprint(args);
    const cached = this.replay.get(scoped);
    if (cached && Date.now() - cached.storedAt < REPLAY_TTL_SECONDS * 1000) {
      return cached.fingerprint === fingerprint ? { body: cached.body, replayed: true } : { conflict: true };
    }
    const body = run();
    this.replay.set(scoped, { fingerprint, body, storedAt: Date.now() });
    evictOldest(this.replay);
    return { body, replayed: false };
  }

  /**
   * Idempotent execution of a task that awaits (a booking's ad server round trip), with the key marked in
   * flight meanwhile (security.mdx rule 9, wait-and-replay): the same request arriving then waits for the
   * first and replays its answer (or, if the first failed, executes itself); another request under that
   * key conflicts at once. A refusal stores nothing (rule 3): the key stays free for the corrected request.
   */
  async idempotentAwaiting(tool: string, key: string, args: JsonObject, run: () => Promise<JsonObject>): Promise<IdempotentOutcome> {
    const scoped = `${tool}\u0000${key}`;
    const fingerprint = requestFingerprint(args);
    for (;;) {
      const cached = this.replay.get(scoped);
      if (cached && Date.now() - cached.storedAt < REPLAY_TTL_SECONDS * 1000) {
        if (cached.fingerprint !== fingerprint) return { conflict: true };
        if (cached.error) throw cached.error;
        return { body: cached.body, replayed: true };
      }
      const flying = this.bugs.noInFlightGuard ? undefined : this.inFlight.get(scoped);
      if (!flying) break;
      if (flying.fingerprint !== fingerprint) return { conflict: true };
      await flying.settled;
    }
    let settle = (): void => {};
    const settled = new Promise<void>((resolve) => (settle = resolve));
    if (!this.bugs.noInFlightGuard) this.inFlight.set(scoped, { fingerprint, settled });
    try {
      const body = await run();
      this.replay.set(scoped, { fingerprint, body, storedAt: Date.now() });
      evictOldest(this.replay);
      return { body, replayed: false };
    } catch (err) {
      if (this.bugs.cacheErrors && err instanceof AdcpFailure) {
        this.replay.set(scoped, { fingerprint, body: {}, error: err, storedAt: Date.now() });
        evictOldest(this.replay);
      }
      throw err;
    } finally {
      this.inFlight.delete(scoped);
      settle();
    }
  }

  /** The ad server round trip a booking waits on (slow on a seller without an in-flight guard). */
  adServerRoundTrip(): Promise<void> {
    const ms = this.bugs.noInFlightGuard ? SLOW_AD_SERVER_ROUND_TRIP_MS : AD_SERVER_ROUND_TRIP_MS;
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  remember<T>(map: Map<string, T>, id: string, record: T): void {
    map.set(id, record);
    evictOldest(map);
  }
}

/** The canonical request a key stands for: `context` (per-call correlation data) and the key itself left out. */
function requestFingerprint(args: JsonObject): string {
  const request: JsonObject = {};
  for (const [k, v] of Object.entries(args)) if (k !== 'context' && k !== 'idempotency_key') request[k] = v;
  return canonicalJson(request);
}

function evictOldest<T>(map: Map<string, T>): void {
  while (map.size > MAX_RECORDS) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

export function stringField(args: JsonObject, key: string): string | undefined {
  const v = args[key];
  return typeof v === 'string' ? v : undefined;
}

export function objectField(args: JsonObject, key: string): JsonObject | undefined {
  const v = args[key];
  return isPlainObject(v) ? v : undefined;
}
