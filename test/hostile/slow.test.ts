// Hostile battery · slow and endless answers: bytes trickled under the call timeout (body and headers),
// SSE streams kept alive with comments, pings or notifications, a chunked body that never ends, an
// initialize that is never answered, and a stdio notification flood. Each call ends at its timeout,
// the session within the agent's, and nothing grows with the flood.
import { describe, expect, test } from 'vitest';
import { expectContained, expectFinding, family, http, stdio, TIMEOUTS } from './battery.ts';

const slow = family('slow', [
  http('slowloris-body'),
  http('slowloris-headers'),
  http('informational-flood'),
  http('sse-keepalive'),
  http('sse-ping-flood'),
  http('sse-notification-flood'),
  http('chunked-never-ends'),
  http('blackhole-init'),
  stdio('notification-flood'),
]);

const callTimeout = new RegExp(`timeout: tools/call: no answer within ${TIMEOUTS.call} ms`);

describe.concurrent('slow and endless', () => {
  test('the run stays bounded, reports are valid, nothing leaks', async () => {
    expectContained(await slow.of('slowloris-body'));
  });

  for (const behaviour of [
    'slowloris-body',
    'slowloris-headers',
    'informational-flood',
    'sse-keepalive',
    'chunked-never-ends',
    'notification-flood',
  ]) {
    test(`${behaviour}: the call ends at the call timeout`, async () => {
      expectFinding(await slow.of(behaviour), behaviour, 'transport.call', callTimeout);
    });
  }

  test('sse-notification-flood: the call stream ends at the byte cap (it counts every byte of the stream) or at the call timeout', async () => {
    // Which comes first depends on how fast the machine reads: either way the call is named and bounded.
    const flood = /oversize: .*1114112-byte cap|timeout: tools\/call: no answer within 2000 ms/;
    expectFinding(await slow.of('sse-notification-flood'), 'sse-notification-flood', 'transport.call', flood);
  });

  test('sse-ping-flood: the call times out, and the flood of server requests is named', async () => {
    const run = await slow.of('sse-ping-flood');
    expectFinding(run, 'sse-ping-flood', 'transport.call', callTimeout);
    expectFinding(run, 'sse-ping-flood', 'transport.jsonrpc', /more than 64 server-to-client requests during one call/);
  });

  test('blackhole-init: initialize fails at the connect timeout', async () => {
    const run = await slow.of('blackhole-init');
    expectFinding(run, 'blackhole-init', 'transport.initialize', new RegExp(`no answer to initialize within ${TIMEOUTS.connect} ms`));
    expect(run.report?.exitCode).toBe(3);
  });
});
