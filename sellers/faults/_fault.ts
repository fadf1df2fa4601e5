// What a fault is: its declaration (the check ids it must trip and with which status) and its behaviour
// (how it bends the reference seller), together in one module `sellers/faults/<name>.ts` whose default
// export is `defineFault({...})`. sellers/faults.ts discovers the modules; files starting with `_` are
// shared helpers. The behaviour hooks points of the seller's call path (sellers/reference/server.ts,
// http.ts, stdio.ts).
import type { AdcpErrorBody } from '../reference/adcp-error.ts';
import type { ToolResult } from '../reference/envelope.ts';
import type { JsonObject } from '../reference/json.ts';
import type { OutputShape } from '../reference/output-schemas.ts';
import type { IdempotencyBugs } from '../reference/state.ts';
import type { WebhookBugs } from '../reference/webhooks.ts';

/** The status a tripped check must have: `fail` for a MUST in force, `warn` for a SHOULD. */
export type TripStatus = 'fail' | 'warn';

/** How a fault takes a whole tools/call over before any tool code runs. */
export type Takeover =
  | { kind: 'hang' }
  | { kind: 'crash' }
  | { kind: 'jsonrpc-error'; code: number; message: string }
  /** Answer with this tools/call result as is (a tool that is not one of the seller's own). */
  | { kind: 'answer'; result: JsonObject };

export interface ResultInfo {
  tool: string;
  /** The flat payload the result was built from. */
  payload: JsonObject;
  result: ToolResult;
}

export interface FaultBehaviour {
  initialize?(result: JsonObject): void;
  /** Edits a tools/call's arguments in place before the seller reads them (a seller that ignores or invents a field). */
  request?(tool: string, args: JsonObject): void;
  /** Edits the advertised tool list in place (tools are our own objects). */
  tools?(tools: JsonObject[]): void;
  outputShape?: OutputShape;
  takeover?(tool: string): Takeover | undefined;
  /** Input that breaks the input schema: answer with this instead of the AdCP VALIDATION_ERROR. */
  invalidInput?: Takeover;
  /** Edits a success payload before the result is built; may ask for a summary text item. */
  payload?(tool: string, payload: JsonObject): { text?: 'summary' } | void;
  /** Replaces a built success result. */
  result?(info: ResultInfo): unknown;
  /** Edits an AdCP error body (already sanitized) before its result is built. */
  error?(error: AdcpErrorBody): void;
  /** Replaces a built error result. */
  errorResult?(result: ToolResult): unknown;
  /** Bugs of the seller's idempotency layer (sellers/reference/state.ts IdempotencyBugs). */
  idempotency?: IdempotencyBugs;
  /** Bugs of the seller's webhook delivery (sellers/reference/webhooks.ts WebhookBugs). */
  webhook?: WebhookBugs;
  /** Streams this tool's success answer with structuredContent padded to `bytes` (streamed-answer.ts). */
  stream?: { tool: string; bytes: number };
  /** Implemented by the transport module itself (stdout logs, HTTP headers). */
  transport?:
    | 'stdio-stdout'
    | 'stdio-undeclared-request'
    | 'http-content-type'
    | 'http-session-id'
    | 'http-auth-optional'
    | 'http-auth-any-token'
    | 'http-auth-discovery-protected';
}

export interface Fault {
  /** `--fault NAME` on the seller's command line; equal to the module's file name. */
  name: string;
  /** What the fault breaks, in one line. */
  description: string;
  /**
   * Check ids that must trip under this fault with the default schema source (AdCP 3.0 from @adcp/sdk),
   * each with the status it must have — and no other id may fail or warn. Empty only when the fault
   * breaks a rule that starts at a later AdCP version (`tripsByAdcpVersion` then names it).
   */
  trips: Readonly<Record<string, TripStatus>>;
  /**
   * What changes when the harness judges at a newer AdCP release (`'3.1'`): entries overlay `trips`;
   * `'pass'` means the id no longer trips at that version.
   */
  tripsByAdcpVersion?: Readonly<Record<string, Readonly<Record<string, TripStatus | 'pass'>>>>;
  /** Transports the fault applies to (default both). */
  transports?: ReadonlyArray<'stdio' | 'http'>;
  /**
   * Agent flags the harness must run with for the fault to show (e.g. production, sandbox). `credentials`:
   * the HTTP seller is started with `--token` and the agent sends it as `Authorization: Bearer …`.
   */
  agent?: { production?: boolean; sandbox?: boolean; credentials?: boolean };
  behaviour: FaultBehaviour;
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CHECK_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ADCP_RELEASE = /^\d+\.\d+$/;

/** Declare a fault. Validates the declaration's data so a malformed module fails loudly at load. */
export function defineFault(fault: Fault): Fault {
  const problems: string[] = [];
  const statuses = (map: object, allowed: readonly string[], where: string): void => {
    for (const [id, status] of Object.entries(map)) {
      if (!CHECK_ID.test(id)) problems.push(`${where}: '${id}' is not a check id (area.kebab-slug)`);
      if (!allowed.includes(status as string)) problems.push(`${where}: '${id}' must be ${allowed.join(' | ')} (got '${String(status)}')`);
    }
  };
  if (!NAME.test(fault.name)) problems.push('name is not kebab-case');
  if (!fault.description || fault.description.includes('\n')) problems.push('description must be one non-empty line');
  statuses(fault.trips ?? {}, ['fail', 'warn'], 'trips');
  for (const [version, overlay] of Object.entries(fault.tripsByAdcpVersion ?? {})) {
    if (!ADCP_RELEASE.test(version)) problems.push(`tripsByAdcpVersion: '${version}' is not an AdCP release (major.minor)`);
    if (Object.keys(overlay).length === 0) problems.push(`tripsByAdcpVersion['${version}'] is empty`);
    statuses(overlay, ['fail', 'warn', 'pass'], `tripsByAdcpVersion['${version}']`);
  }
  for (const t of fault.transports ?? []) if (t !== 'stdio' && t !== 'http') problems.push(`transport '${String(t)}' is not stdio or http`);
  for (const v of Object.values(fault.agent ?? {})) if (typeof v !== 'boolean') problems.push('agent flags are booleans');
  if (fault.agent?.credentials && (fault.transports?.length !== 1 || fault.transports[0] !== 'http'))
    problems.push("agent.credentials needs transports: ['http']");
  if (!fault.behaviour || typeof fault.behaviour !== 'object') problems.push('behaviour is missing');
  // A fault may be conformant at the default version (the rule starts at a later one), never everywhere.
  if (problems.length === 0 && trippedIds(fault).length === 0) problems.push('trips names no check id (at any AdCP version)');
  if (problems.length) throw new Error(`fault ${String(fault.name)}: ${problems.join('; ')}`);
  return Object.freeze(fault);
}

/**
 * The ids a fault must trip at an AdCP release, with their statuses: `trips` overlaid with every
 * `tripsByAdcpVersion` entry whose release is at or below `version` (oldest first). No version: `trips`.
 */
export function tripsAt(fault: Fault, version?: string): Record<string, TripStatus> {
  const out: Record<string, TripStatus | 'pass'> = { ...fault.trips };
  if (version !== undefined) {
    const [major, minor] = version.split('.').map(Number) as [number, number];
    const steps = Object.keys(fault.tripsByAdcpVersion ?? {})
      .map((v) => ({ v, p: v.split('.').map(Number) as [number, number] }))
      .filter(({ p }) => p[0] < major || (p[0] === major && p[1] <= minor))
      .sort((a, b) => a.p[0] - b.p[0] || a.p[1] - b.p[1]);
    for (const { v } of steps) Object.assign(out, fault.tripsByAdcpVersion![v]);
  }
  return Object.fromEntries(Object.entries(out).filter((e): e is [string, TripStatus] => e[1] !== 'pass'));
}

/** Every id the fault names: `trips` and every per-version overlay (a `pass` entry included). */
export function namedIds(fault: Fault): string[] {
  return [...new Set([...Object.keys(fault.trips), ...Object.values(fault.tripsByAdcpVersion ?? {}).flatMap((o) => Object.keys(o))])];
}

/** Every id the fault trips at some AdCP version (an overlay's `pass` only stops one tripping there). */
export function trippedIds(fault: Fault): string[] {
  const overlays = Object.values(fault.tripsByAdcpVersion ?? {}).flatMap((o) => Object.keys(o).filter((id) => o[id] !== 'pass'));
  return [...new Set([...Object.keys(fault.trips), ...overlays])];
}
