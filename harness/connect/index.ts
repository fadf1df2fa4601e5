// Public surface of the connect stage: the MCP session pieces that harness/capture drives.
export { PermissiveResult, PinnedClient } from './session.ts';
