// Hostile sellers whose answers break JSON-RPC: a second, different answer to one id, a batch array for
// a single request, the string id "3" for our numeric 3, an answer to an id never sent, and requests for
// capabilities the client never declared. None may satisfy a call; each is recorded on the capture as a
// protocol violation (capture.protocolViolations). Live over stdio and loopback HTTP (JSON and SSE).
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { captureAgent } from '../../harness/capture/capture-agent.ts';
import type { AgentCapture, ProtocolViolationKind } from '../../harness/record/exchange.ts';
import { httpAgent, probes, stdioAgent } from '../connect/agents.ts';
import { json, result, type RpcMessage, sseEvent, startRpcHttp } from './rpc-http.ts';

const RPC_STDIO = fileURLToPath(new URL('./servers/rpc-stdio.mjs', import.meta.url));
const timeouts = { connectMs: 5_000, callMs: 6_000, agentMs: 40_000 };
const AT = 'tools/call get_adcp_capabilities';

type Behaviour = 'duplicate' | 'batch' | 'string-id' | 'unknown-id' | 'server-requests';

const stdio = (behaviour: Behaviour): Promise<AgentCapture> =>
  captureAgent(
    stdioAgent('rpc', {
      command: process.execPath,
      args: [RPC_STDIO, behaviour],
      timeouts,
      probes: probes('get_adcp_capabilities', 'get_adcp_capabilities'),
    }),
  );

/** The same misbehaviours over streamable HTTP: `sse` writes the call's answer as SSE events, else as a JSON body. */
async function http(behaviour: Behaviour, mode: 'json' | 'sse'): Promise<AgentCapture> {
  let stream: ServerResponse | undefined;
  let callId: RpcMessage['id'];
  const answers: RpcMessage[] = [];
  const server = await startRpcHttp((m, res) => {
    if (m.method === undefined && typeof m.id === 'string' && m.id.startsWith('s-')) {
      // Our answer to one of its requests: once all three came, answer the call with them.
      answers.push(m);
      res.writeHead(202).end();
      if (answers.length === 3) stream?.end(sseEvent(result(callId, { answers })));
      return true;
    }
    if (m.method !== 'tools/call') return false;
    const messages =
      behaviour === 'duplicate'
        ? [result(m.id, { answer: 'first' }), result(m.id, { answer: 'second, different' })]
        : behaviour === 'batch'
          ? [[result(m.id)]]
          : behaviour === 'string-id'
            ? [result(String(m.id))]
            : behaviour === 'unknown-id'
              ? [result(987654), result(m.id)]
              : [
                  { jsonrpc: '2.0', id: 's-1', method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
                  {
                    jsonrpc: '2.0',
                    id: 's-2',
                    method: 'elicitation/create',
                    params: { message: 'x', requestedSchema: { type: 'object', properties: {} } },
                  },
                  { jsonrpc: '2.0', id: 's-3', method: 'roots/list' },
                ];
    if (mode === 'json') {
      json(res, messages.length === 1 ? messages[0] : messages.at(-1)); // a JSON body holds one message
      return true;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(messages.map(sseEvent).join('')); // one write: after its answer the harness releases the stream
    if (behaviour === 'server-requests') {
      callId = m.id;
      stream = res;
      answers.length = 0;
    } else {
      res.end();
    }
    return true;
  });
  try {
    return await captureAgent(httpAgent(server.url, { timeouts, probes: probes('get_adcp_capabilities', 'get_adcp_capabilities') }));
  } finally {
    await server.close();
  }
}

const kinds = (c: AgentCapture): ProtocolViolationKind[] => (c.protocolViolations ?? []).map((v) => v.kind);
/** The calls of the agent's own session (HTTP: the discovery calls without credentials run in a session of their own). */
const SEPARATE = new Set(['public-discovery', 'unauthenticated', 'invalid-credentials']);
const ownCalls = (c: AgentCapture) => c.exchanges.filter((x) => !SEPARATE.has(x.scenario?.name ?? ''));

const transports = [
  ['stdio', stdio],
  ['http sse', (b: Behaviour) => http(b, 'sse')],
] as const;

describe.each(transports)('%s', (_name, run) => {
  test('a second, different answer to the same id: the first stands, the second is a recorded violation', async () => {
    const c = await run('duplicate');
    for (const x of c.exchanges) expect(x.outcome).toMatchObject({ kind: 'result', result: { structuredContent: { answer: 'first' } } });
    // One violation per call: the two probes and the scenario call the harness makes without context.
    expect(ownCalls(c).length).toBeGreaterThanOrEqual(2);
    expect(kinds(c)).toEqual(ownCalls(c).map(() => 'duplicate-response'));
    expect(c.protocolViolations?.[0]?.message).toMatch(/second \(different\) answer to our tools\/call request id \d+/);
  });

  test('a batch array answering a single request never satisfies it', async () => {
    const c = await run('batch');
    for (const x of c.exchanges) {
      expect(x.outcome).toMatchObject({
        kind: 'transport-error',
        failure: { kind: 'protocol', message: expect.stringContaining('batch array') },
      });
      expect(x.durationMs).toBeLessThan(timeouts.callMs); // refused at once, not timed out
    }
    expect(c.protocolViolations).toEqual([
      expect.objectContaining({ kind: 'batch', at: AT }),
      expect.objectContaining({ kind: 'batch', at: AT }),
    ]);
  });

  test('the string id "N" answering our numeric id N never satisfies the call (the SDK would take it)', async () => {
    const c = await run('string-id');
    for (const x of c.exchanges) {
      expect(x.outcome).toMatchObject({
        kind: 'transport-error',
        failure: { kind: 'protocol', message: expect.stringMatching(/answered with id "\d+", not our id \d+/) },
      });
    }
    expect(kinds(c)).toEqual(['id-type-mismatch', 'id-type-mismatch']);
    expect(c.protocolViolations?.[0]).toMatchObject({
      at: AT,
      message: expect.stringMatching(/id "\d+" \(string\) to our tools\/call request id \d+ \(number\)/),
    });
  });

  test('an answer to an id never sent is recorded and ignored; the real answer still counts', async () => {
    const c = await run('unknown-id');
    for (const x of c.exchanges) expect(x.outcome).toMatchObject({ kind: 'result', result: { structuredContent: { ok: true } } });
    // One per call: the two probes and the scenario call the harness makes without context.
    expect(ownCalls(c).length).toBeGreaterThanOrEqual(2);
    expect(c.protocolViolations).toEqual(
      ownCalls(c).map(() => ({ kind: 'unknown-id', message: 'an answer to id 987654, which the harness never sent', at: AT })),
    );
  });

  test('sampling, elicitation and roots requests (never declared) are answered -32601 within the call, and recorded', async () => {
    const c = await run('server-requests');
    const x = c.exchanges[0]!;
    expect(x.outcome.kind).toBe('result');
    const answers = (x.outcome as { result: { structuredContent: { answers: RpcMessage[] } } }).result.structuredContent.answers;
    expect(answers.map((a) => [a.id, (a.error as { code: number }).code])).toEqual([
      ['s-1', -32601],
      ['s-2', -32601],
      ['s-3', -32601],
    ]);
    expect(c.protocolViolations?.slice(0, 3)).toEqual(
      ['sampling/createMessage', 'elicitation/create', 'roots/list'].map((method) => ({
        kind: 'undeclared-capability',
        message: `the server sent a ${method} request, a capability the client never declared; answered with JSON-RPC error -32601`,
        at: AT,
      })),
    );
  });
});

describe('http json', () => {
  test('a JSON body holding a batch array never satisfies the call', async () => {
    const c = await http('batch', 'json');
    expect(c.exchanges[0]?.outcome).toMatchObject({
      kind: 'transport-error',
      failure: { kind: 'protocol', message: expect.stringContaining('batch array') },
    });
    expect(kinds(c)).toEqual(['batch', 'batch']);
  });

  test('a JSON body answering with the string id never satisfies the call', async () => {
    const c = await http('string-id', 'json');
    expect(c.exchanges[0]?.outcome).toMatchObject({ kind: 'transport-error', failure: { kind: 'protocol' } });
    expect(kinds(c)).toEqual(['id-type-mismatch', 'id-type-mismatch']);
  });
});
