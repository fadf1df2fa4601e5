// An HTTP seller that puts hundreds of server-to-client pings in one SSE answer: the harness answers a
// bounded number of them, over a bounded number of connections, records the flood, and still takes the
// call's answer. (Unbounded, each answer opened a connection of its own.)
import { expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import { MAX_SERVER_REQUESTS_PER_CALL } from '../../harness/connect/call-tracker.ts';
import { MAX_CONNECTIONS_PER_ORIGIN } from '../../harness/connect/http-fetch.ts';
import { httpAgent, probes } from '../connect/agents.ts';
import { result, sseEvent, startRpcHttp } from './rpc-http.ts';

const PINGS = 300;
/** Ping answers the seller waits for before answering the call: enough to show whether they came in parallel. */
const WAIT_FOR_ANSWERS = 10;

test('a ping flood in one SSE answer: bounded answers, bounded connections, recorded, the call still answered', async () => {
  let pingAnswers = 0;
  let finish: (() => void) | undefined;
  const server = await startRpcHttp((m, res) => {
    if (m.method === undefined && typeof m.id === 'string' && m.id.startsWith('p-')) {
      // Slow to accept each answer: answers sent in parallel would each hold a connection open meanwhile.
      if (++pingAnswers === WAIT_FOR_ANSWERS) finish?.();
      setTimeout(() => res.writeHead(202).end(), 100);
      return true;
    }
    if (m.method !== 'tools/call') return false;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(Array.from({ length: PINGS }, (_, i) => sseEvent({ jsonrpc: '2.0', id: `p-${i}`, method: 'ping' })).join(''));
    finish = () => res.end(sseEvent(result(m.id)));
    return true;
  });
  try {
    const capture = await captureAgent(
      httpAgent(server.url, { timeouts: { connectMs: 5_000, callMs: 20_000, agentMs: 40_000 }, probes: probes('get_adcp_capabilities') }),
      // The flood of one call only: no scenario calls after it (each would be flooded again).
      { scenarios: false },
    );
    expect(capture.exchanges[0]?.outcome).toMatchObject({ kind: 'result', result: { structuredContent: { ok: true } } });
    expect(server.peakSockets()).toBeLessThanOrEqual(MAX_CONNECTIONS_PER_ORIGIN);
    expect(pingAnswers).toBeGreaterThanOrEqual(WAIT_FOR_ANSWERS);
    expect(pingAnswers).toBeLessThanOrEqual(MAX_SERVER_REQUESTS_PER_CALL);
    expect(capture.protocolViolations).toEqual([
      expect.objectContaining({ kind: 'server-request-flood', at: 'tools/call get_adcp_capabilities' }),
    ]);
  } finally {
    await server.close();
  }
});
