// What a running seller remembers: media buys and creatives booked in this process (sandbox
// inventory, never persisted), and the idempotency cache of mutating calls.
import { canonicalJson, isPlainObject, type JsonObject } from './json.ts';

export interface MediaBuyRecord {
  media_buy_id: string;
  /** AdCP media-buy-status: booked → pending_creatives; update_media_buy pauses, resumes (active) or cancels. */
  status: 'pending_creatives' | 'active' | 'paused' | 'canceled';
  currency: string;
  total_budget: number;
  start_time: string;
  end_time: string;
  confirmed_at: string;
  revision: number;
  packages: Array<{ package_id: string; product_id: string; pricing_option_id: string; budget: number }>;
}

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

interface CachedResponse {
  fingerprint: string;
  body: JsonObject;
  storedAt: number;
}

export class SellerState {
  readonly mediaBuys = new Map<string, MediaBuyRecord>();
  readonly creatives = new Map<string, CreativeRecord>();
  private readonly replay = new Map<string, CachedResponse>();
  private nextId = 1;

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
    const request: JsonObject = {};
    for (const [k, v] of Object.entries(args)) if (k !== 'context' && k !== 'idempotency_key') request[k] = v;
    const fingerprint = canonicalJson(request);
    const cached = this.replay.get(scoped);
    if (cached && Date.now() - cached.storedAt < REPLAY_TTL_SECONDS * 1000) {
      return cached.fingerprint === fingerprint ? { body: cached.body, replayed: true } : { conflict: true };
    }
    const body = run();
    this.replay.set(scoped, { fingerprint, body, storedAt: Date.now() });
    evictOldest(this.replay);
    return { body, replayed: false };
  }

  remember<T>(map: Map<string, T>, id: string, record: T): void {
    map.set(id, record);
    evictOldest(map);
  }
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
