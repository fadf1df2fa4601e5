// transport.jsonrpc — the seller speaks JSON-RPC 2.0 as MCP profiles it: one answer per request, with
// the request's own id (same JSON type), no batches (removed in MCP 2025-06-18), and no server-to-client
// requests for capabilities the client never declared, and every message UTF-8 (MCP transports: "JSON-RPC
// messages MUST be UTF-8 encoded"). Such a message never satisfies a call (a message that is not UTF-8 is
// read with U+FFFD for its bad bytes); this check says that it happened.
import { defineCheck, fail, pass, untested } from '../check.ts';
import { one } from './_listed-tools.ts';
import { describeViolations, violationsOf } from './_violations.ts';

export default defineCheck({
  id: 'transport.jsonrpc',
  scope: 'agent',
  severity: 'MUST',
  live: true,
  title:
    'every answer is one JSON-RPC response to a request the client sent, with its id (same type); no batches; no requests for undeclared capabilities',
  spec: {
    label: 'MCP 2025-11-25 · Basic › Messages (JSON-RPC 2.0 requests, responses, ids) and capability negotiation',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic#messages',
  },
  fix: 'answer each request exactly once with its own id, unchanged in type ("3" is not 3); send single messages, not arrays; only send sampling / elicitation / roots requests to clients that declared them',
  judge(a) {
    if (!a.initialize.ok && !(a.protocolViolations?.length ?? 0))
      return one('session', untested('initialize failed: see transport.initialize'));
    const found = violationsOf(a, [
      'batch',
      'id-type-mismatch',
      'unknown-id',
      'duplicate-response',
      'undeclared-capability',
      'server-request-flood',
      'invalid-utf8',
    ]);
    if (found === null)
      return one('session', untested('this capture does not record JSON-RPC violations (a recording made before they were recorded)'));
    if (found.length === 0) return one('session', pass());
    const more = a.protocolViolationsOmitted ? ` (+${a.protocolViolationsOmitted} not recorded)` : '';
    return one(
      'session',
      fail(
        '/protocolViolations/0',
        'only JSON-RPC responses to our own requests, one each, ids unchanged',
        `${describeViolations(found)}${more}`,
      ),
    );
  },
});
