// The AdCP 3.1 protocol envelope (core/protocol-envelope.json) as the envelope rules read it: on MCP its
// fields sit at the root of the payload, beside the task's own fields.

/** The public URL of the envelope schema (its notes carry the MCP serialization and the status rule). */
export const PROTOCOL_ENVELOPE_URL = 'https://adcontextprotocol.org/schemas/v3/core/protocol-envelope.json';

/** Protocol-envelope fields that sit beside the task body on MCP. */
export const ENVELOPE_KEYS: ReadonlySet<string> = new Set([
  'status',
  'message',
  'context',
  'context_id',
  'task_id',
  'timestamp',
  'replayed',
  'adcp_error',
  'push_notification_config',
  'governance_context',
  'adcp_version',
]);
