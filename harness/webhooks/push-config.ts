// The push_notification_config each call of a sandbox agent carries (tasks whose request takes one:
// adcp-tasks.ts takesPushNotification): a per-call URL on the harness's receiver and a unique operation_id,
// with NO `authentication` — so the seller must sign every delivery under the RFC 9421 webhook profile
// (https://adcontextprotocol.org/docs/building/by-layer/L1/security, Webhook callbacks).
//
// A replay (an idempotency_key sent before, with the same body) carries the original's config unchanged:
// the URL is inside the payload-equivalence hash, so a new one would rightly be answered IDEMPOTENCY_CONFLICT
// (security.mdx › Payload equivalence: only idempotency_key, context, governance_context and the
// authentication credentials are left out of it).
import { createHash } from 'node:crypto';
import { PUSH_NOTIFICATION_TASKS } from '../adcp-tasks.ts';

export const PUSH_FIELD = 'push_notification_config';

/** Where a call's config points: the receiver share of one agent (AgentWebhooks). */
export interface PushTarget {
  readonly token: string;
  urlFor(index: number, operationId: string): string;
}

export class PushConfigs {
  /** `key + body hash` → the config the first call with them carried. */
  private readonly sent = new Map<string, Record<string, unknown>>();

  constructor(private readonly target: PushTarget) {}

  /**
   * `args` with a push_notification_config added (a NEW object) when `tool` takes one and `args` carry none;
   * otherwise `args` as given. `index` is the call's place in the capture's exchanges.
   */
  withPushConfig(tool: string, args: Record<string, unknown>, index: number): Record<string, unknown> {
    if (!PUSH_NOTIFICATION_TASKS.has(tool) || Object.hasOwn(args, PUSH_FIELD)) return args;
    const key = args['idempotency_key'];
    const replayOf = typeof key === 'string' ? `${tool}\n${key}\n${bodyHash(args)}` : undefined;
    const earlier = replayOf !== undefined ? this.sent.get(replayOf) : undefined;
    if (earlier) return { ...args, [PUSH_FIELD]: structuredClone(earlier) };
    const operationId = `adcp-conformance.${this.target.token}.${index}`;
    const config = { url: this.target.urlFor(index, operationId), operation_id: operationId };
    if (replayOf !== undefined) this.sent.set(replayOf, config);
    return { ...args, [PUSH_FIELD]: structuredClone(config) };
  }
}

/** The request's hash with the fields payload equivalence leaves out removed (key order does not matter). */
export function bodyHash(args: Record<string, unknown>): string {
  const { idempotency_key: _k, context: _c, governance_context: _g, ...rest } = args;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

/** Sorted-key JSON (enough to compare two of our own requests; not a full RFC 8785 implementation). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
