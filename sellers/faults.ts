// The fault modes of the reference seller: each breaks exactly one rule and names the check ids it
// must trip. The self-test matrix and `adcp-conformance checks` read this list.
// Behaviour lives in sellers/reference/fault-behaviours.ts (same names; a test keeps both in step).
//
// Targets (so each fault is narrow): success-shape faults change only `get_products` (the probe that
// sends a brief and a context); error faults change every AdCP error the seller returns (the harness
// provokes one: get_products with `buying_mode: 42`); call-level faults hit `get_signals`, a tool no
// other check depends on. `trips` are the outcomes with the default schema source (AdCP 3.0 from
// @adcp/sdk); `tripsByAdcpVersion` adds what changes when the harness validates at a newer release.

export interface Fault {
  /** `--fault NAME` on the seller's command line. */
  name: string;
  /** What the fault breaks, in one line. */
  description: string;
  /** Check ids that must fail (MUST) or warn (SHOULD) under this fault, and no others. */
  trips: string[];
  /** Transports the fault applies to (default both). */
  transports?: Array<'stdio' | 'http'>;
  /** Agent flags the harness must run with for the fault to show (e.g. production, sandbox). */
  agent?: { production?: boolean; sandbox?: boolean };
  /**
   * OPTIONAL (added by the reference-seller work): extra ids tripped when the harness validates
   * responses at that AdCP release (`'3.1'`: the 3.1 schemas require `status` through
   * core/protocol-envelope.json and forbid `task_status`), in addition to `trips`.
   */
  tripsByAdcpVersion?: Record<string, string[]>;
}

export const faults: Fault[] = [
  // ── transport ─────────────────────────────────────────────────────────────────────────────────
  {
    name: 'initialize-unsupported-protocol',
    description: "initialize answers with protocolVersion '2023-01-01', a revision no client supports",
    trips: ['transport.initialize'],
  },
  {
    name: 'initialize-no-server-info',
    description: 'initialize answers without serverInfo',
    trips: ['transport.initialize'],
  },
  {
    name: 'input-schema-not-object',
    description: "tools/list adds a tool 'reference_echo' whose inputSchema is {type:'array'} (not an object schema)",
    trips: ['transport.tools-list'],
  },
  {
    name: 'stdout-logs',
    description: 'the stdio server writes a plain log line to stdout before each tools/call answer',
    trips: ['transport.stdio-stdout'],
    transports: ['stdio'],
  },
  {
    name: 'tool-name-slash',
    description: "tools/list adds a tool named 'tasks/get' (outside MCP's tool-name alphabet)",
    trips: ['transport.tool-names'],
  },
  {
    name: 'http-bad-content-type',
    description: "the HTTP answer to tools/call get_signals says Content-Type: text/plain (body unchanged), so no client reads it",
    trips: ['transport.http-response', 'transport.call'],
    transports: ['http'],
  },
  {
    name: 'http-session-id-change',
    description: 'every HTTP response after initialize carries a new Mcp-Session-Id (the server still accepts each)',
    trips: ['transport.http-response'],
    transports: ['http'],
  },
  {
    name: 'hang-on-call',
    description: 'tools/call get_signals is never answered (the process and connection stay up)',
    trips: ['transport.call'],
  },
  {
    name: 'crash-mid-call',
    description: 'the seller process exits while handling tools/call get_signals (stdio: the pipe closes; HTTP: the server is gone)',
    trips: ['transport.call'],
  },
  {
    name: 'oversize-structured-50mib',
    description: 'get_products structuredContent padded (ext) to 50 MiB and streamed at once: past the harness byte cap, the call is cut while reading',
    trips: ['transport.call', 'envelope.size'],
  },
  // ── envelope ──────────────────────────────────────────────────────────────────────────────────
  {
    name: 'is-error-string',
    description: "AdCP error results carry isError: 'true' (a string) instead of the boolean",
    trips: ['envelope.is-error-type'],
  },
  {
    name: 'content-block-malformed',
    description: "get_products content gets a second item {type:'text'} without its text field",
    trips: ['envelope.content-blocks'],
  },
  {
    name: 'text-only',
    description: 'get_products answers without structuredContent, only the JSON text item (MUST from MCP 2025-06-18)',
    trips: ['envelope.structured-content'],
  },
  {
    name: 'structured-content-array',
    description: 'get_products structuredContent is [payload] (an array); the text item still mirrors the payload',
    trips: ['envelope.structured-content-object'],
  },
  {
    name: 'adcp-error-only-structured',
    description: 'get_products success (no isError) whose structuredContent and text are {adcp_error:{…}} alone',
    trips: ['envelope.adcp-error-only-success', 'envelope.extractable'],
  },
  {
    name: 'adcp-error-only-text',
    description: 'get_products success (no isError) without structuredContent whose only text is {"adcp_error":{…}}',
    trips: ['envelope.adcp-error-only-success', 'envelope.extractable', 'envelope.structured-content'],
  },
  {
    name: 'oversize-structured-1mib',
    description: 'get_products structuredContent padded (ext) to 1 MiB + 4 KiB; text is a short summary, the message stays under the byte cap',
    trips: ['envelope.size'],
  },
  {
    name: 'text-mirror-mismatch',
    description: 'get_products text item is JSON of a different payload (no products) than structuredContent',
    trips: ['envelope.text-mirror'],
  },
  {
    name: 'payload-nested',
    description: "get_products structuredContent is {payload:{…the flat payload…}} (status, context and products one level down)",
    trips: ['envelope.flat', 'envelope.status', 'envelope.context-echo', 'schema.adcp-response'],
  },
  {
    name: 'status-missing',
    description: 'get_products payload has no status',
    trips: ['envelope.status'],
    tripsByAdcpVersion: { '3.1': ['schema.adcp-response'] },
  },
  {
    name: 'status-invalid',
    description: "get_products payload has status 'done' (not a task status)",
    trips: ['envelope.status'],
    tripsByAdcpVersion: { '3.1': ['schema.adcp-response'] },
  },
  {
    name: 'legacy-task-status',
    description: "get_products payload carries task_status: 'completed' next to status",
    trips: ['envelope.legacy-status-fields'],
    tripsByAdcpVersion: { '3.1': ['schema.adcp-response'] },
  },
  {
    name: 'context-not-echoed',
    description: 'get_products success drops the context the caller sent',
    trips: ['envelope.context-echo'],
  },
  {
    name: 'context-altered',
    description: 'get_products success echoes the context with a different correlation_id',
    trips: ['envelope.context-echo'],
  },
  {
    name: 'proto-keys',
    description: "get_products payload carries ext: {'__proto__': {…}} (a literal own key)",
    trips: ['envelope.reserved-keys'],
  },
  // ── errors ────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'error-bare-text',
    description: 'get_media_buy_delivery fails with isError:true and plain text only: no adcp_error, no structuredContent (so no context)',
    trips: ['error.adcp-error', 'envelope.context-echo'],
  },
  {
    name: 'error-text-not-json',
    description: 'AdCP error results carry plain prose as content[0].text instead of the {"adcp_error":…} JSON',
    trips: ['error.text-mirror'],
  },
  {
    name: 'error-code-65',
    description: 'adcp_error.code is 65 characters long',
    trips: ['error.code'],
  },
  {
    name: 'error-5kb',
    description: 'adcp_error carries details padded to ~5 KB (serialized error > 4096 bytes)',
    trips: ['error.size'],
  },
  {
    name: 'error-recovery-unknown',
    description: "adcp_error.recovery is 'retry-later' (not transient | correctable | terminal)",
    trips: ['error.recovery'],
  },
  {
    name: 'retry-after-zero',
    description: 'adcp_error.retry_after is 0',
    trips: ['error.retry-after'],
  },
  {
    name: 'retry-after-day',
    description: 'adcp_error.retry_after is 86400',
    trips: ['error.retry-after'],
  },
  {
    name: 'retry-after-fraction',
    description: 'adcp_error.retry_after is 2.5 (not an integer)',
    trips: ['error.retry-after'],
  },
  {
    name: 'jsonrpc-rate-limit-no-data',
    description: 'tools/call get_signals is answered with JSON-RPC error -32029 without error.data.adcp_error',
    trips: ['error.jsonrpc-data'],
  },
  {
    name: 'validation-jsonrpc-32602',
    description: 'input that breaks the input schema is answered with a bare JSON-RPC -32602 error string, not an AdCP error',
    trips: ['error.validation'],
  },
  {
    name: 'error-stack-trace',
    description: "adcp_error.message is a TypeError text and details.stack holds stack frames with /srv/… file paths",
    trips: ['error.no-internals'],
  },
  {
    name: 'error-message-control-chars',
    description: 'adcp_error.message contains a BEL control character and a U+202E bidi override',
    trips: ['error.message-safety'],
  },
  {
    name: 'error-message-long',
    description: 'adcp_error.message is 300 bytes long (limit 256)',
    trips: ['error.message-safety'],
  },
  // ── schemas ───────────────────────────────────────────────────────────────────────────────────
  {
    name: 'output-schema-bad-id',
    description: "get_signals outputSchema declares $id 'my_tool:output' (Ajv/fast-uri reject it)",
    trips: ['schema.output-schema'],
  },
  {
    name: 'output-schema-mismatch',
    description: "get_products outputSchema requires 'total_count', which its structuredContent never carries",
    trips: ['schema.output-conformance'],
  },
  {
    name: 'legacy-output-shape',
    description:
      'same as --output-shape legacy (MCP SDK 2.0–2.3): meta-id tools advertise {properties:{result:{$ref}}} and answer {result:{…}}; the text still mirrors the inner payload',
    trips: ['schema.legacy-wrapper', 'envelope.status', 'envelope.context-echo', 'envelope.text-mirror', 'schema.adcp-response'],
  },
  {
    name: 'legacy-result-wrapper',
    description:
      'a stale process: tools/list advertises the root shape ($ref into $defs) but meta-id tools still answer {result:{…}}; the text mirrors the inner payload',
    trips: ['schema.legacy-wrapper', 'envelope.status', 'envelope.context-echo', 'envelope.text-mirror', 'schema.adcp-response'],
  },
  {
    name: 'adcp-response-missing-required',
    description: "list_creative_formats payload drops the required 'formats' (AdCP response schema: required property at pointer /formats)",
    trips: ['schema.adcp-response'],
  },
  // ── capabilities ──────────────────────────────────────────────────────────────────────────────
  {
    name: 'no-capabilities-tool',
    description: 'get_adcp_capabilities is not listed (and calling it fails)',
    trips: ['capabilities.tool'],
  },
  {
    name: 'capabilities-no-supported-versions',
    description: 'get_adcp_capabilities omits adcp.supported_versions (major_versions stays)',
    trips: ['capabilities.versions'],
  },
  {
    name: 'test-controller-exposed',
    description: 'tools/list exposes comply_test_controller on an agent marked production',
    trips: ['capabilities.test-controller'],
    agent: { production: true },
  },
];

/** The fault named `name`, if any. */
export function faultByName(name: string): Fault | undefined {
  return faults.find((f) => f.name === name);
}
