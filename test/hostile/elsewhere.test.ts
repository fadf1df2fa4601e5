// Hostile battery · pointing elsewhere, and headers: 307 / 303 / 308 redirects to another host, a 401
// whose WWW-Authenticate sends the client to another host's OAuth metadata, 512 KiB of response headers,
// headers named like Object.prototype's members, and session ids that break HTTP (folded over CR LF) or
// MCP (not visible ASCII). The harness follows none of them (the trap host counts connections: none), and
// never sends a header the seller injected.
import { describe, expect, test } from 'vitest';
import { agentOf, expectContained, expectFinding, family, http, runHostile } from './battery.ts';

const elsewhere = family('elsewhere', [
  http('redirect-307'),
  http('redirect-303'),
  http('redirect-308-init'),
  http('www-authenticate-init'),
  http('www-authenticate'),
  http('huge-headers'),
  http('proto-headers'),
  http('session-id-crlf-init'),
  http('session-id-not-visible-ascii-init'),
]);

describe.concurrent('redirects, challenges and headers', () => {
  test('the run stays bounded, reports are valid, nothing leaks, nothing connects elsewhere', async () => {
    expectContained(await elsewhere.of('redirect-307'));
  });

  test('redirect-307 / redirect-303: a redirected call is not followed; the call fails naming the status', async () => {
    const run = await elsewhere.of('redirect-307');
    expectFinding(run, 'redirect-307', 'transport.call', /http-status: tools\/call got HTTP 307/);
    expectFinding(run, 'redirect-303', 'transport.call', /http-status: tools\/call got HTTP 303/);
  });

  test('redirect-308-init: a redirected initialize is not followed', async () => {
    expectFinding(
      await elsewhere.of('redirect-308-init'),
      'redirect-308-init',
      'transport.initialize',
      /initialize got HTTP 308 Permanent Redirect/,
    );
  });

  test('www-authenticate-init: a 401 challenge pointing at another host is quoted, not followed', async () => {
    const run = await elsewhere.of('www-authenticate-init');
    expectFinding(
      run,
      'www-authenticate-init',
      'transport.initialize',
      /HTTP 401 .*WWW-Authenticate: Bearer realm="\[REDACTED\]".*resource_metadata=/,
    );
  });

  test('www-authenticate: a 401 mid-session fails the call with the challenge', async () => {
    expectFinding(
      await elsewhere.of('www-authenticate'),
      'www-authenticate',
      'transport.call',
      /tools\/call got HTTP 401 .*WWW-Authenticate/,
    );
  });

  test('huge-headers: 512 KiB of headers fail the call (header overflow), memory bounded', async () => {
    expectFinding(
      await elsewhere.of('huge-headers'),
      'huge-headers',
      'transport.call',
      /(network|closed): .*(headers_overflow|headers? (overflow|too large))/i,
    );
  });

  test('proto-headers: response headers named like Object.prototype members, repeated, and cookies: the answer is read and judged', async () => {
    const a = agentOf(await elsewhere.of('proto-headers'), 'proto-headers');
    const call = a.outcomes.filter((o) => o.check === 'transport.call');
    expect(call.length).toBeGreaterThan(0);
    expect(call.map((o) => `${o.status} ${o.message}`).filter((s) => !s.startsWith('pass'))).toEqual([]);
  });

  test('session-id-crlf-init: a session id folded over CR LF is a malformed response; the injected header is never sent', async () => {
    const run = await elsewhere.of('session-id-crlf-init');
    expectFinding(run, 'session-id-crlf-init', 'transport.initialize', /does not match the HTTP\/1\.1 protocol/);
    expect(run.seen['session-id-crlf-init']?.['injected']).toBeUndefined(); // the folded-in header was never sent back
  });

  test('session-id-not-visible-ascii-init: a session id outside visible ASCII is named', async () => {
    expectFinding(
      await elsewhere.of('session-id-not-visible-ascii-init'),
      'session-id-not-visible-ascii-init',
      'transport.http-response',
      /Mcp-Session-Id.*visible ASCII/,
    );
  });

  test('redirect-307, run alone with re-verification: the failing call asked again in a fresh session is not followed either', async () => {
    const run = await runHostile('redirect-307-alone', [http('redirect-307')]);
    expectContained(run);
    expectFinding(run, 'redirect-307', 'transport.call', /http-status: tools\/call got HTTP 307/);
    expect(run.seen['redirect-307']?.['requests']).toBeGreaterThan(4); // the fresh session came back to the seller
  });
});
