// transport.http-response — streamable HTTP answers a request with JSON or an SSE stream, and keeps the
// session id it assigned, made of visible ASCII only (0x21–0x7E, MCP session management: the client
// sends it back in a header, so anything else is a header it must not forge). Only a session that started proves anything: when initialize failed (a 401,
// a 404, a refused connection) and nothing recorded breaks the rule, the check is untested, not passed.
import { defineCheck, fail, notApplicable, pass, untested } from '../check.ts';
import { isObject, preview } from '../../json.ts';
import { escapeVisible } from '../../sanitize.ts';
import { one } from './_listed-tools.ts';

const STREAMABLE_TYPES = ['application/json', 'text/event-stream'];
/** MCP: "The session ID MUST only contain visible ASCII characters (ranging from 0x21 to 0x7E)." */
const SESSION_ID = /^[\x21-\x7E]+$/;

/** A session id that is not visible ASCII, shown with its first offending character named. */
function badSessionId(id: string): string {
  const at = [...id].findIndex((c) => !SESSION_ID.test(c));
  const char = [...id][at] ?? '';
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  return `${JSON.stringify(escapeVisible(id, 80))}: ${code} at character ${at}`;
}

function mediaType(contentType: unknown): string | null {
  if (typeof contentType !== 'string') return null;
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** A POST that carried a JSON-RPC request (not a notification, not a DELETE / GET recorded by verb). */
function carriesRequest(method: unknown): boolean {
  return typeof method === 'string' && !/^[A-Z]+$/.test(method) && !method.startsWith('notifications/');
}

export default defineCheck({
  id: 'transport.http-response',
  scope: 'agent',
  severity: 'MUST',
  live: true,
  title: 'streamable HTTP answers with `application/json` or `text/event-stream`, and honours its own `Mcp-Session-Id`',
  spec: {
    label: 'MCP 2025-11-25 · Basic › Transports › Streamable HTTP (response content types; session management)',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http',
  },
  fix:
    'answer each JSON-RPC POST with `Content-Type: application/json` or `text/event-stream`, ' +
    'and accept the `Mcp-Session-Id` you assigned on initialize (visible ASCII only, e.g. a UUID) for the whole session',
  judge(a) {
    if (a.agent.transport !== 'http') return one('http', notApplicable('not a streamable HTTP agent'));
    const observations = a.http?.observations ?? [];
    if (observations.length === 0) {
      return one(
        'http',
        a.initialize.ok ? untested('no HTTP responses recorded') : untested('no HTTP responses recorded: see transport.initialize'),
      );
    }
    const initIndex = observations.findIndex((o) => isObject(o) && o.method === 'initialize');
    let session: string | undefined = a.http?.sessionId ?? (initIndex >= 0 ? observations[initIndex]!.sessionId : undefined);
    for (let i = 0; i < observations.length; i++) {
      const o = observations[i]!;
      // Only POSTs that carried a JSON-RPC request owe a JSON / SSE answer: not notifications (202, no
      // body), not the session-closing DELETE or a GET stream the harness records by HTTP verb.
      if (!isObject(o) || !carriesRequest(o.method)) continue;
      const answered = o.status >= 200 && o.status < 300 && o.status !== 202 && o.status !== 204;
      if (answered && !STREAMABLE_TYPES.includes(mediaType(o.contentType) ?? '')) {
        const expected = `${STREAMABLE_TYPES.join(' or ')} (${String(o.method)})`;
        return one('http', fail(`/http/observations/${i}/contentType`, expected, preview(o.contentType ?? undefined)));
      }
      if (typeof o.sessionId === 'string' && !SESSION_ID.test(o.sessionId)) {
        return one(
          'http',
          fail(
            `/http/observations/${i}/sessionId`,
            'an Mcp-Session-Id of visible ASCII characters only (0x21–0x7E)',
            badSessionId(o.sessionId),
          ),
        );
      }
      if (i <= initIndex) continue;
      if (o.status === 404 && session !== undefined) {
        const found = `404 on ${String(o.method)}: the server no longer knows its own session`;
        return one('http', fail(`/http/observations/${i}/status`, `an answer in session ${preview(session)}`, found));
      }
      if (typeof o.sessionId === 'string') {
        if (session === undefined) session = o.sessionId;
        else if (o.sessionId !== session) {
          const expected = `the session id ${preview(session)} assigned on initialize`;
          return one('http', fail(`/http/observations/${i}/sessionId`, expected, `${preview(o.sessionId)} on ${String(o.method)}`));
        }
      }
    }
    // Nothing broke the rule, but a session that never started has shown nothing to pass on.
    if (!a.initialize.ok) return one('http', untested('initialize failed, so no session was observed: see transport.initialize'));
    return one('http', pass());
  },
});
