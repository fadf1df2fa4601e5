// The protocol-field scenarios: read-only calls the probes already made, re-sent
// - `protocol-fields` (1–2 calls; sellers that declare a 3.1+ release): with every envelope field a buyer
//   SDK sends uniformly on every tool — `context_id`, `push_notification_config` (a harmless URL under the
//   reserved `.example` domain), `governance_context` (a well-formed compact JWS a read never consumes)
//   and `idempotency_key` — on get_adcp_capabilities and on one read task. Each must be served as it was
//   without them (security.mdx "Server-side tool wrapper conformance").
// - `context-not-fabricated` (1 call; every seller): WITHOUT the `context` object the harness otherwise
//   sends on every call. The answer must carry no `context` (context-sessions.mdx, "No synthesis").
import { randomUUID } from 'node:crypto';
import type { Exchange, ScenarioRecord } from '../record/exchange.ts';
import type { ScenarioHost } from './scenario-host.ts';
import { own } from '../json.ts';
import { successPayload } from './scenario-facts.ts';
import { PINNED_TASKS } from '../adcp-tasks.ts';
import { baseProbe, gate31 } from './version-scenario.ts';

export const ENVELOPE_SCENARIO = { protocolFields: 'protocol-fields', noContext: 'context-not-fabricated' } as const;
export const ENVELOPE_STEP = { withFields: 'with-protocol-fields', withoutContext: 'without-context' } as const;

/** The envelope fields sent, by name (security.mdx lists these five). */
export const PROTOCOL_FIELDS = ['context_id', 'push_notification_config', 'governance_context', 'idempotency_key'] as const;

const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

/**
 * A compact JWS in the shape of an AdCP governance token (security.mdx "Signed Governance Context": typ
 * `adcp-gov+jws`), signed by no one: a read never consumes it, and must ignore it.
 */
export function governanceToken(now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const header = { alg: 'EdDSA', kid: 'adcp-conformance', typ: 'adcp-gov+jws' };
  const claims = {
    iss: 'https://conformance-test.example/governance',
    sub: 'adcp-conformance',
    aud: 'https://conformance-test.example/seller',
    iat,
    exp: iat + 600,
    jti: randomUUID(),
    phase: 'purchase',
  };
  return `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}.${Buffer.alloc(64, 7).toString('base64url')}`;
}

/** The seller's own context_id from an earlier answer, if it gave one (a short string), else a fresh one. */
function contextId(exchanges: readonly Exchange[]): string {
  for (const x of exchanges) {
    const id = own(successPayload(x), 'context_id');
    if (typeof id === 'string' && id.length > 0 && id.length <= 255) return id;
  }
  return `adcp-conformance-ctx-${randomUUID()}`;
}

/** The envelope fields, fresh for one call. */
export function protocolFields(exchanges: readonly Exchange[]): Record<string, unknown> {
  const id = randomUUID();
  return {
    context_id: contextId(exchanges),
    push_notification_config: {
      url: `https://conformance-test.example/adcp-conformance/webhooks/${id}`,
      operation_id: `adcp-conformance-${id}`,
    },
    governance_context: governanceToken(),
    idempotency_key: `adcp-conformance-${id}`,
  };
}

async function withFields(host: ScenarioHost): Promise<ScenarioRecord> {
  const name = ENVELOPE_SCENARIO.protocolFields;
  const declared = gate31(host, name);
  if (!Array.isArray(declared)) return declared;
  const bases: Exchange[] = [];
  const caps = baseProbe(host, name, ['get_adcp_capabilities']);
  if ('tool' in caps) bases.push(caps);
  const read = baseProbe(host, name, PINNED_TASKS);
  if ('tool' in read) bases.push(read);
  if (bases.length === 0) {
    const records = [caps, read] as ScenarioRecord[];
    return records.find((r) => r.status === 'untested') ?? records[1]!;
  }
  for (const base of bases) {
    // The probe's own arguments (its version pins included) plus the envelope fields: only they differ.
    const args: Record<string, unknown> = { ...base.request.arguments, ...protocolFields(host.exchanges()) };
    delete args['context'];
    await host.call(base.tool, args, { name, step: ENVELOPE_STEP.withFields });
  }
  return { name, status: 'ran', baseCall: host.exchanges().indexOf(bases[0]!) };
}

async function withoutContext(host: ScenarioHost): Promise<ScenarioRecord> {
  const name = ENVELOPE_SCENARIO.noContext;
  let base = baseProbe(host, name, PINNED_TASKS);
  if (!('tool' in base)) {
    const caps = baseProbe(host, name, ['get_adcp_capabilities']);
    if (!('tool' in caps)) return base.status === 'untested' ? base : caps;
    base = caps;
  }
  const args: Record<string, unknown> = { ...base.request.arguments };
  delete args['context'];
  await host.call(base.tool, args, { name, step: ENVELOPE_STEP.withoutContext }, { context: false });
  return { name, status: 'ran', baseCall: host.exchanges().indexOf(base) };
}

export const protocolFieldsScenario = { name: ENVELOPE_SCENARIO.protocolFields, run: withFields };
export const contextNotFabricatedScenario = { name: ENVELOPE_SCENARIO.noContext, run: withoutContext };
