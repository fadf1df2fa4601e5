#!/usr/bin/env node
// A hostile stdio MCP seller of our own: one misbehaviour per run, chosen by the first argument.
//   fatal             writes `FATAL: SELLER_API_KEY is not set` (and its SELLER_TOKEN) on stderr and exits 1 at once
//   stderr-log        tools/call `throws` logs an exception (with SELLER_TOKEN) on stderr then answers isError;
//                     `quiet` logs nothing; `noisy` logs 20 KB
//   duplicate         answers every tools/call twice, the second answer different
//   batch             answers every tools/call inside a JSON array
//   string-id         answers every tools/call with the id as a string ("3" for 3)
//   unknown-id        before each answer, answers an id the client never sent
//   server-requests   on tools/call sends sampling/createMessage, elicitation/create and roots/list requests,
//                     and answers the call with the answers it got back
//   stdin-stall       on tools/call stops reading stdin and sends pings with 512 KiB ids (their answers pile up)
//   paginate-forever  tools/list always has a fresh nextCursor
//   cursor-loop       tools/list page 2 gives page 1's cursor again
//   duplicate-names   tools/list names two tools `get_adcp_capabilities`
//   hold-answer MS    answers every tools/call after MS milliseconds (a prompt seller, for the seller-clock test)
//   many-tools        tools/list in two pages of 1500 tools each (the harness keeps 2000); every tools/call
//                     answered with a JSON-RPC error carrying data, its text spaced out and with a key repeated
import { createInterface } from 'node:readline';

const behaviour = process.argv[2] ?? '';
const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');
const tool = { name: 'get_adcp_capabilities', inputSchema: { type: 'object' } };
const ok = (id, extra = {}) => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text: '{}' }], structuredContent: { ok: true, ...extra } },
});

if (behaviour === 'fatal') {
  process.stderr.write('FATAL: SELLER_API_KEY is not set\n');
  process.stderr.write(`(started with token ${process.env.SELLER_TOKEN ?? '-'})\n`);
  process.exit(1);
}

const pending = new Map(); // server-requests: our request id → answer
let callId;
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return;
  }
  if (m.method === undefined && pending.has(m.id)) {
    pending.set(m.id, m);
    if ([...pending.values()].every(Boolean)) send(ok(callId, { answers: [...pending.values()] }));
    return;
  }
  if (m.id === undefined) return; // a notification
  if (m.method === 'initialize') {
    return send({
      jsonrpc: '2.0',
      id: m.id,
      result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'rpc-stdio', version: '1' } },
    });
  }
  if (m.method === 'tools/list') return toolsList(m);
  if (m.method !== 'tools/call') return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } });
  const name = m.params?.name;
  switch (behaviour) {
    case 'stderr-log':
      if (name === 'throws') {
        process.stderr.write(
          `TypeError: Cannot read properties of undefined (reading 'map') token=${process.env.SELLER_TOKEN}\n    at handler (/srv/seller/tools.js:42:17)\n`,
        );
        return send({ jsonrpc: '2.0', id: m.id, result: { isError: true, content: [{ type: 'text', text: 'internal error' }] } });
      }
      if (name === 'noisy') process.stderr.write('n'.repeat(20_000) + '\n');
      return send(ok(m.id));
    case 'duplicate':
      send(ok(m.id, { answer: 'first' }));
      return send(ok(m.id, { answer: 'second, different' }));
    case 'batch':
      return send([ok(m.id)]);
    case 'string-id':
      return send(ok(String(m.id)));
    case 'unknown-id':
      send(ok(987654));
      return send(ok(m.id));
    case 'server-requests':
      callId = m.id;
      pending.set('s-1', undefined).set('s-2', undefined).set('s-3', undefined);
      send({ jsonrpc: '2.0', id: 's-1', method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } });
      send({
        jsonrpc: '2.0',
        id: 's-2',
        method: 'elicitation/create',
        params: { message: 'x', requestedSchema: { type: 'object', properties: {} } },
      });
      send({ jsonrpc: '2.0', id: 's-3', method: 'roots/list' });
      return;
    case 'stdin-stall': {
      lines.pause();
      process.stdin.pause();
      process.stderr.write(`stalling pid ${process.pid}\n`);
      setInterval(() => {}, 1000); // stay alive until killed
      const big = 'p'.repeat(512 * 1024);
      for (let i = 0; i < 16; i++) send({ jsonrpc: '2.0', id: `${big}-${i}`, method: 'ping' });
      return;
    }
    case 'many-tools': {
      const error = `{ "code" : -32000, "message" : "first", "message" : "down", "data" : { "n" : 1e400, "x" : -0 } }`;
      return void process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"error":${error}}\n`);
    }
    case 'hold-answer':
      return void setTimeout(() => send(ok(m.id)), Number(process.argv[3] ?? 0));
    default:
      return send(ok(m.id));
  }
});
lines.on('close', () => {
  if (behaviour !== 'stdin-stall') process.exit(0);
});

function toolsList(m) {
  const page = Number(m.params?.cursor ?? 0);
  if (behaviour === 'paginate-forever')
    return send({ jsonrpc: '2.0', id: m.id, result: { tools: page === 0 ? [tool] : [], nextCursor: String(page + 1) } });
  if (behaviour === 'cursor-loop') return send({ jsonrpc: '2.0', id: m.id, result: { tools: page === 0 ? [tool] : [], nextCursor: '1' } });
  if (behaviour === 'many-tools') {
    const tools = Array.from({ length: 1500 }, (_, i) => ({ name: `t${page}_${i}`, inputSchema: { type: 'object' } }));
    if (page === 0) tools[0] = tool;
    return send({ jsonrpc: '2.0', id: m.id, result: { tools, ...(page === 0 ? { nextCursor: '1' } : {}) } });
  }
  if (behaviour === 'duplicate-names')
    return send({ jsonrpc: '2.0', id: m.id, result: { tools: [tool, { ...tool, description: 'another' }] } });
  const extra = behaviour === 'stderr-log' ? ['throws', 'quiet', 'noisy'].map((name) => ({ name, inputSchema: { type: 'object' } })) : [];
  return send({ jsonrpc: '2.0', id: m.id, result: { tools: [tool, ...extra] } });
}
