// transport.stdio-stdout — a stdio server's stdout carries JSON-RPC messages only (logs go to stderr).
// Clean stdout is only evidence when a session ran: a command that never started (or never completed
// the handshake) has said nothing either way, so that is untested, never a pass.
import { defineCheck, fail, notApplicable, pass, untested } from '../check.ts';
import { preview } from '../../json.ts';
import { one } from './_listed-tools.ts';

export default defineCheck({
  id: 'transport.stdio-stdout',
  scope: 'agent',
  severity: 'MUST',
  live: true,
  title: 'a stdio server writes nothing but JSON-RPC messages on stdout (logs go to stderr)',
  spec: {
    label: 'MCP 2025-11-25 · Basic › Transports › stdio (the server MUST NOT write anything to stdout that is not a valid MCP message)',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio',
  },
  fix: 'send logs to stderr (e.g. `console.error`, not `console.log`); stdout carries only JSON-RPC messages',
  judge(a) {
    if (a.agent.transport !== 'stdio') return one('stdout', notApplicable('not a stdio agent'));
    const junk = a.stdio?.stdoutJunk ?? [];
    if (junk.length > 0) {
      return one(
        'stdout',
        fail('/stdio/stdoutJunk/0', 'only JSON-RPC messages on stdout', `${junk.length} other line(s), first: ${preview(junk[0])}`),
      );
    }
    if (!a.initialize.ok)
      return one('stdout', untested('initialize failed, so stdout was never observed over a session: see transport.initialize'));
    return one('stdout', pass());
  },
});
