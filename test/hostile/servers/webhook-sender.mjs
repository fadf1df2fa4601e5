#!/usr/bin/env node
// A hostile stdio sandbox seller of our own for the harness's webhook receiver: on the first sync_creatives
// call it sends to the call's push_notification_config URL, chosen by the first argument:
//   deliver      one JSON payload, exact bytes (odd spacing, non-ASCII), retried once after a 503
//   flood        5000 deliveries, 50 at a time, in the background (the call is answered at once)
//   huge         one 100 MiB body, streamed
//   slow         one body, a byte every 200 ms, never finished
//   wrong-path   one delivery to a path the harness never handed out
//   not-json     one body that is not JSON
// Each outcome it sees (status or error) is written to stderr, one line each, for the test to read.
import { request } from 'node:http';
import { createInterface } from 'node:readline';

const behaviour = process.argv[2] ?? '';
const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');
const json = (id, body) => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body },
});
const TOOLS = ['get_adcp_capabilities', 'sync_creatives'].map((name) => ({ name, inputSchema: { type: 'object' } }));
const log = (line) => process.stderr.write(`webhook-sender: ${line}\n`);

/** The exact bytes of the `deliver` payload (the test rebuilds them from the operation_id). */
const payload = (op) =>
  `{"operation_id":${JSON.stringify(op)},  "status":"completed","task_type":"sync_creatives","note":"caf\u00e9 \u2713"}`;

function post(url, body, { chunks } = {}) {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', () => resolve('error'));
    });
    req.on('error', (err) => resolve(err.code ?? 'error'));
    if (!chunks) return req.end(body);
    chunks(req);
  });
}

async function deliver(config) {
  const { url, operation_id: op } = config;
  const u = new URL(url);
  switch (behaviour) {
    case 'deliver': {
      const first = await post(url, payload(op));
      log(`first ${first}`);
      if (first === 503) log(`retry ${await post(url, payload(op))}`);
      return;
    }
    case 'flood': {
      let next = 0;
      const worker = async () => {
        while (next < 5000) await post(url, `{"idempotency_key":"flood-${next++}-abcdefghijklmnop"}`);
      };
      await Promise.all(Array.from({ length: 50 }, worker));
      return log('flood done');
    }
    case 'huge': {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const status = await post(url, undefined, {
        chunks: (req) => {
          let sent = 0;
          const more = () => {
            while (sent < 100 * 1024 * 1024) {
              sent += chunk.length;
              if (!req.write(chunk)) return req.once('drain', more);
            }
            req.end();
          };
          req.on('close', () => log(`huge stopped after ${sent} bytes`));
          more();
        },
      });
      return log(`huge ${status}`);
    }
    case 'slow': {
      const status = await post(url, undefined, {
        chunks: (req) => {
          req.write('{');
          const t = setInterval(() => req.write(' '), 200);
          req.on('close', () => clearInterval(t));
        },
      });
      return log(`slow ${status}`);
    }
    case 'wrong-path':
      return log(`wrong-path ${await post(`${u.origin}/somewhere/else`, payload(op))}`);
    case 'not-json':
      return log(`not-json ${await post(url, 'this is not JSON \u0000')}`);
  }
}

let delivered = false;
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', async (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return;
  }
  if (m.id === undefined || m.method === undefined) return;
  if (m.method === 'initialize')
    return send({
      jsonrpc: '2.0',
      id: m.id,
      result: {
        protocolVersion: m.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'webhook-sender', version: '1' },
      },
    });
  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: { tools: TOOLS } });
  if (m.method !== 'tools/call') return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } });
  const args = m.params?.arguments ?? {};
  if (m.params?.name === 'get_adcp_capabilities')
    return send(json(m.id, { status: 'completed', adcp: { major_versions: [3] }, supported_protocols: ['creative'] }));
  if (m.params?.name !== 'sync_creatives' || delivered || !args.push_notification_config?.url)
    return send(json(m.id, { status: 'completed', creatives: [], context: args.context }));
  delivered = true;
  const pending = deliver(args.push_notification_config);
  // The flood, the huge and the slow body run on after the answer: the session must go on meanwhile.
  if (behaviour === 'deliver' || behaviour === 'wrong-path' || behaviour === 'not-json') await pending;
  send(json(m.id, { status: 'submitted', task_id: 'task_1', context: args.context }));
});
