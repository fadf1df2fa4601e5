// The raw record of what a seller sent: a ground-floor module (it imports nothing of ours) that connect/,
// capture/, extract/, checks/, schemas/ and report/ all import. Every later stage reads these records and
// nothing else, so a recording replays to exactly the outcomes of the live run.
// Seller-controlled values are kept as parsed JSON (`unknown`), never spread into our own objects.

export type Transport = 'http' | 'stdio';

/** Why a call, or the whole session, did not produce a JSON-RPC answer. */
export type TransportFailureKind =
  | 'connect' // could not connect / spawn / initialize
  | 'timeout' // a call, or the whole agent, ran past its timeout
  | 'oversize' // the body passed the byte cap while being read; the call was aborted
  | 'closed' // the peer closed the connection / the process exited mid-call
  | 'http-status' // non-2xx HTTP status, or a content type that is not JSON / SSE
  | 'protocol' // a malformed JSON-RPC message
  | 'network'; // any other I/O error

export interface TransportFailure {
  kind: TransportFailureKind;
  /** One readable line; already free of secrets. */
  message: string;
  /** Bytes read before the call was cut (oversize), when known. */
  bytesSeen?: number;
  httpStatus?: number;
  contentType?: string | null;
}

/** What one HTTP response looked like (streamable HTTP only). */
export interface HttpObservation {
  /** JSON-RPC method this POST carried ('initialize', 'tools/list', 'tools/call', …). */
  method: string;
  status: number;
  contentType: string | null;
  /** `Mcp-Session-Id` header the server sent on this response, if any. */
  sessionId?: string;
  /** Non-2xx only: the start of the body (bounded, one line, secrets redacted). */
  bodyExcerpt?: string;
  /** A 401's `WWW-Authenticate` header (bounded, secrets redacted). */
  wwwAuthenticate?: string;
}

/** A JSON-RPC rule the seller broke on the wire. The offending message never satisfied a call. */
export type ProtocolViolationKind =
  | 'batch' // a JSON array of messages (the harness never batches; MCP removed batching in 2025-06-18)
  | 'id-type-mismatch' // an answer whose id is ours in another JSON type ("3" for 3)
  | 'unknown-id' // an answer to an id the harness never sent (or an id that is not a string or number)
  | 'duplicate-response' // a second answer to the same request
  | 'undeclared-capability' // a server-to-client request (sampling, elicitation, roots) the client never declared; answered -32601
  | 'server-request-flood' // more server-to-client requests in one call than the harness answers
  | 'endless-pagination' // tools/list kept giving a nextCursor past the page bound, or repeated a cursor
  | 'duplicate-tool-name' // tools/list named two tools the same
  | 'invalid-utf8'; // a message whose bytes are not UTF-8 (MCP: JSON-RPC messages MUST be UTF-8); read with U+FFFD in their place

export interface ProtocolViolation {
  kind: ProtocolViolationKind;
  /** One readable line; already free of secrets. */
  message: string;
  /** The call in flight when it was seen (e.g. `tools/call get_products`, `tools/list`, `initialize`). */
  at?: string;
}

export type ExchangeOutcome =
  /** A JSON-RPC result: the raw `CallToolResult`, unvalidated (may be any JSON a seller sent). */
  | { kind: 'result'; result: unknown }
  /** A JSON-RPC error object, raw. */
  | { kind: 'jsonrpc-error'; error: unknown }
  /** No JSON-RPC answer at all. */
  | { kind: 'transport-error'; failure: TransportFailure };

/** Why the harness made the call: a valid probe, or the deliberately invalid one for the error path. */
export type ProbeIntent = 'valid' | 'invalid';

export interface Exchange {
  agent: string;
  tool: string;
  intent: ProbeIntent;
  /** The `tools/call` params exactly as sent (`{name, arguments}`); `arguments.context` carries the correlation id. */
  request: { name: string; arguments: Record<string, unknown> };
  outcome: ExchangeOutcome;
  /** Negotiated MCP protocol revision of the session (e.g. `2025-11-25`). */
  protocolVersion?: string;
  /** The tool as advertised in `tools/list` (raw), if it was listed. */
  advertised?: { inputSchema?: unknown; outputSchema?: unknown };
  /** HTTP facts of the response that carried this call (streamable HTTP only). */
  http?: HttpObservation;
  /** UTF-8 bytes of the JSON-RPC message that carried the answer, when known. */
  bytes?: number;
  startedAt: string;
  durationMs: number;
  /** stdio only: what the server wrote on stderr while the call ran (bounded, secrets redacted); absent when nothing. */
  stderrDuring?: string;
  /** Set when the call is a step of a business-rule scenario (harness/capture/scenarios.ts); absent for a plain probe. */
  scenario?: ExchangeScenario;
  /**
   * Set on the `get_adcp_capabilities` call the harness made first, before the probes, because they did not
   * start with it (the AdCP handshake, capture-agent.ts); absent when the call was one of the probes.
   */
  handshake?: true;
  /** Set when the call was made by something other than the harness's probes (e.g. `storyboard idempotency/replay`). */
  via?: string;
}

/** Which scenario a call belongs to, and which of its steps it is (`unsupported-version`, `page-2`, `replay` …). */
export interface ExchangeScenario {
  name: string;
  step: string;
}

/**
 * What became of one business-rule scenario in this session. `ran`: its calls are the exchanges carrying
 * `scenario.name`; otherwise why it did not run — `not-applicable` (it does not concern this agent: not
 * sandbox, tool not listed, no credentials) or `untested` (it does, but a precondition failed).
 */
export interface ScenarioRecord {
  name: string;
  status: 'ran' | 'not-applicable' | 'untested';
  reason?: string;
  /** Index in `exchanges` of the call the scenario varied (a probe, or the scenario's own `base` step), when it had one. */
  baseCall?: number;
  /** `unauthenticated` only: the headers left out of the call (names, never values). */
  withheld?: string[];
  /**
   * `unauthenticated` only: the HTTP answer that refused the call without credentials (no JSON-RPC answer,
   * so no Exchange): at `initialize` (the session could not even start) or at the `tools/call` itself.
   */
  refusal?: { at: 'initialize' | 'tools/call'; status: number; wwwAuthenticate?: string; bodyExcerpt?: string; message: string };
  /**
   * `public-discovery` only: the discovery calls made without credentials that got an HTTP refusal (no
   * JSON-RPC answer, so no Exchange), by tool.
   */
  refusals?: Array<{ tool: string; status: number; wwwAuthenticate?: string; bodyExcerpt?: string; message: string }>;
  /**
   * Sandbox flows: every object the flow made the seller create (ids as the seller answered them, bounded),
   * and whether the flow's clean-up removed it (`cleanedUp`: canceled, deleted) or the seller offers no
   * way to (`kept`, with why). Listed in every report so an operator can find them in the seller's sandbox.
   */
  created?: Array<{ kind: 'media_buy' | 'creative'; id: string; call: number; cleanup: 'cleaned-up' | 'kept'; why?: string }>;
}

export interface ServerInfo {
  name?: unknown;
  version?: unknown;
}

/** One agent's whole session: the handshake, the tool list and every Exchange, in call order. */
export interface AgentCapture {
  agent: {
    name: string;
    transport: Transport;
    production: boolean;
    sandbox: boolean;
    /** AdCP version pinned in the config, if any. */
    adcpVersion?: string;
    /** Per-tool override of the structured-content layer's `metaIdTool` detection, from config. */
    metaIdTools?: Record<string, boolean>;
    /**
     * The AdCP account reference the config names (`account`), sent on every call whose task takes one;
     * absent: none configured (sandbox flows name the harness's own natural-key sandbox reference).
     */
    account?: Record<string, unknown>;
    /**
     * The public keys the config says the agent signs its webhooks with (`webhookKeys`), and where they
     * came from (`inline` or the JWKS file's path); absent: none configured (webhook.signature untested).
     */
    webhookKeys?: { keys: Array<Record<string, unknown> & { kid: string; kty: string }>; source: string };
  };
  initialize:
    | {
        ok: true;
        protocolVersion: unknown;
        serverInfo: unknown;
        capabilities?: unknown;
        durationMs: number;
      }
    | { ok: false; failure: TransportFailure };
  /** `tools/list`, all pages joined; absent when initialize failed. */
  toolsList?: { ok: true; tools: unknown[]; pages: number } | { ok: false; failure: TransportFailure };
  stdio?: {
    /** Whether the process was spawned at all (false: command not found, not executable …). */
    spawned?: boolean;
    /** Lines on stdout that were not JSON-RPC messages (bounded, truncated). */
    stdoutJunk: string[];
    /** Last bytes of stderr (bounded). */
    stderrTail: string;
    /** Set when the process exited before the harness closed it. */
    exit?: { code: number | null; signal: string | null };
    /** Set when the harness killed the server for a reason of its own (e.g. it stopped reading its stdin). */
    killedBecause?: string;
  };
  http?: {
    observations: HttpObservation[];
    /** Session id the server assigned on initialize. */
    sessionId?: string;
  };
  exchanges: Exchange[];
  /**
   * JSON-RPC rule breaks seen during the session, in order (bounded). Always present on a live capture
   * (empty when none); absent only in recordings made before it existed.
   */
  protocolViolations?: ProtocolViolation[];
  /** How many violations were seen past the bound and not kept. */
  protocolViolationsOmitted?: number;
  /** A failure that cut the whole agent short (agent timeout, crash), after initialize. */
  aborted?: TransportFailure;
  /** The business-rule scenarios considered after the probes, in order; absent in recordings made before them. */
  scenarios?: ScenarioRecord[];
  /**
   * The AdCP release the harness pinned (`adcp_version`, with `adcp_major_version`) on every call after
   * get_adcp_capabilities, and why; `release: null` when it pinned none. Absent in older recordings.
   */
  adcpPin?: { release: string | null; reason: string };
  /**
   * The webhook receiver the harness hosted for this agent (sandbox agents only) and every delivery it saw,
   * in arrival order (bounded). Absent when no receiver ran (read-only agents, older recordings).
   */
  webhooks?: WebhookCapture;
}

/** What the harness's webhook receiver saw for one agent. */
export interface WebhookCapture {
  /** The base URL the calls named (`push_notification_config.url` = base + a per-call path). */
  base: string;
  /** Whether the base is the receiver's own loopback address or an operator's public URL (`--webhook-url`). */
  kind: 'loopback' | 'public';
  deliveries: WebhookDelivery[];
  /** Deliveries past the count bound, not kept. */
  omitted: number;
  /** How long the run waited for late deliveries after the last call, in ms. */
  waitedMs: number;
  /** Why nothing could arrive, when the receiver knows (e.g. it could not bind). */
  note?: string;
  /**
   * The keys the deliveries were verified with: where they came from (the configured `webhookKeys`, or the
   * seller's published JWKS: harness/webhooks/key-discovery.ts), or why there were none. Absent: nothing
   * needed keys (no delivery to a handed-out URL), or a recording made before it existed.
   */
  keys?: { source: string } | { problem: string };
}

/** One HTTP request the receiver got. Bytes are kept exactly (bounded) so a signature can be verified. */
export interface WebhookDelivery {
  /** Milliseconds since the receiver started. */
  at: number;
  method: string;
  /** Path and query as received. */
  target: string;
  /** The call (index in `exchanges`) whose push_notification_config URL this path is; absent for an unknown path. */
  call?: number;
  /** Header names lower-cased, in arrival order; values bounded; credential values redacted. */
  headers: Array<[string, string]>;
  /** The body: UTF-8 text, or base64 when it is not valid UTF-8 (`bodyEncoding`); cut at the byte bound. */
  body: string;
  bodyEncoding: 'utf8' | 'base64';
  /** Bytes the seller sent (all of them, counted even past the bound). */
  bodyBytes: number;
  /** The body was cut: over the byte bound, or the seller stopped sending / was too slow. */
  cut?: 'bytes' | 'time' | 'aborted';
  /** The status the receiver answered (503 to the first delivery of each event, to see the retry). */
  answered: number;
  /**
   * Its RFC 9421 webhook-profile signature checked with the agent's `webhookKeys` (harness/webhooks/verify.ts,
   * after the run: checks judge synchronously); absent when no keys were configured.
   */
  verification?: { ok: true; keyid: string } | { ok: false; code: string; step?: number; message: string };
}
