import { SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../harness/connect/protocol-versions.ts';

test('our copy of the MCP revisions the client speaks is the pinned SDK list (update it with the SDK)', () => {
  expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_VERSIONS);
});
