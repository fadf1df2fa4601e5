// The resolved configuration of one agent, as every stage after harness/config sees it:
// defaults merged, `${VAR}` and `{fromFile}` resolved, durations in milliseconds.
import type { WebhookKeys } from './webhook-keys.ts';

export interface Timeouts {
  /** Connect + initialize + tools/list. */
  connectMs: number;
  /** One tools/call, from send to the last byte of its answer. */
  callMs: number;
  /** The whole agent: handshake, every probe, close. */
  agentMs: number;
  /** Following one async task by polling, first poll to last (default: harness/capture/task-flow.ts, 20 s). */
  taskMs?: number;
}

export interface Probe {
  tool: string;
  arguments: Record<string, unknown>;
  /** `invalid` marks the deliberate bad call for the error path. Defaults to `valid`. */
  intent?: 'valid' | 'invalid';
}

interface AgentBase {
  name: string;
  timeouts: Timeouts;
  /** MCP protocol revision to request in `initialize` (default: the SDK's latest). */
  protocolVersion?: string;
  /**
   * AdCP release to pin (`3.1`, release precision): every call after get_adcp_capabilities carries it as
   * `adcp_version`; also the release to judge at when the seller does not say.
   */
  adcpVersion?: string;
  production: boolean;
  sandbox: boolean;
  /**
   * The AdCP account reference (core/account-ref.json: `{account_id}`, or the natural key `{brand,
   * operator, sandbox?}`) every call sends where its task takes an `account`. Absent: sandbox flows send a
   * natural-key sandbox reference of the harness's own, and the reports say so.
   */
  account?: Record<string, unknown>;
  /** The public keys the agent signs its webhooks with (`webhookKeys`: a JWKS file or inline), read at load. */
  webhookKeys?: WebhookKeys;
  /** Explicit probes; when absent the harness derives safe defaults from `tools/list`. */
  probes?: Probe[];
  /** Hard cap on the bytes of one JSON-RPC answer, enforced while reading. */
  maxBytes: number;
  /** Per tool: whether its output schema was declared with an id, overriding detection (the structured-content layer). */
  metaIdTools?: Record<string, boolean>;
  /** Known failures: check id (or `id › tool`) → reason. Reported, not counted against the run. */
  expect?: Record<string, string>;
  /** Where each `expect` entry is written in the config (JSON pointer: the agent's own, or `/defaults/expect/…`). */
  expectPointers?: Record<string, string>;
  /** Every secret value resolved from the config (header and env values, {fromFile} contents, URL credentials, every
   * `${VAR}` value wherever it is used): redacted everywhere. */
  secrets: string[];
}

export interface HttpAgentConfig extends AgentBase {
  transport: 'http';
  url: string;
  headers: Record<string, string>;
  /**
   * Names of the headers that carry the credential (config `credentialHeaders`, spelled as in `headers`):
   * the authentication scenarios leave them out, or send them with a wrong value. When absent,
   * Authorization and headers whose names say so (Cookie, *api-key*, *token* …) are taken for credentials
   * (harness/capture/unauthenticated.ts credentialHeaders, the one definition).
   */
  credentialHeaders?: string[];
}

export interface StdioAgentConfig extends AgentBase {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export type AgentConfig = HttpAgentConfig | StdioAgentConfig;

export interface Config {
  /** Absolute path of the file it came from (for messages). */
  file: string;
  agents: AgentConfig[];
}
