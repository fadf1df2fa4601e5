// The MCP revisions our client (the pinned @modelcontextprotocol/sdk) speaks, newest first. A copy of the
// SDK's SUPPORTED_PROTOCOL_VERSIONS, so judging (a worker thread) need not load the SDK's zod types for
// one list; test/connect/protocol-versions.test.ts fails when the SDK's list changes.
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
