#!/usr/bin/env node
// A hostile stdio sandbox seller of our own for the harness's webhook receiver: on the first sync_creatives
// call it sends to the call's push_notification_config URL, chosen by the first argument:
//   deliver      one JSON payload, exact bytes (odd spacing, non-ASCII), retried once after a 503
//   flood        5000 deliveries, 50 at a time, in the background (the call is answered at once)
//   huge         one 100 MiB body, streamed
//   slow         one body, a byte every 200 ms, never finished
//   wrong-path   one delivery to a path the harness never handed out
//   not-json     one body that is not JSON
//   bad-signature  eight signed deliveries, one good and seven broken (tampered body, garbage signature,
//                unknown key, malformed or 12 KB Signature-Input, wrong tag, the good one replayed), signed
//                with the Ed25519 private JWK in WEBHOOK_SENDER_JWK; each body names its case
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

function post(url, body, { chunks, headers = { 'content-type': 'application/json' } } = {}) {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
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
    case 'bad-signature':
      return badSignatures(url, op);
  }
}

/** Signed under the AdCP webhook profile as the reference seller signs (base64url Content-Digest), then broken case by case. */
async function badSignatures(url, op) {
  const { buildSignatureBase, finalizeRequestSignature, prepareWebhookSignature } = await import('@adcp/sdk/signing');
  const { createHash, createPrivateKey, sign } = await import('node:crypto');
  const jwk = JSON.parse(process.env.WEBHOOK_SENDER_JWK ?? '{}');
  const key = createPrivateKey({ key: jwk, format: 'jwk' });
  const signed = (body, keyid = jwk.kid) => {
    const req = { method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body };
    const prepared = prepareWebhookSignature(req, { keyid, alg: 'ed25519' }, { windowSeconds: 300 });
    const headers = { ...prepared.headers, 'Content-Digest': `sha-256=:${createHash('sha256').update(body).digest('base64url')}:` };
    const base = buildSignatureBase(prepared.components, { ...req, headers }, prepared.params);
    return finalizeRequestSignature({ ...prepared, headers, base }, sign(null, Buffer.from(base), key)).headers;
  };
  const body = (c) => JSON.stringify({ operation_id: op, task_id: 'task_1', task_type: 'sync_creatives', status: 'completed', case: c });
  const good = body('good');
  const goodHeaders = signed(good);
  const cases = [
    ['good', good, goodHeaders],
    ['tampered', body('tampered'), signed(body('tampered')), (b) => b.replace('"completed"', '"failed"')],
    [
      'garbage-signature',
      body('garbage-signature'),
      { ...signed(body('garbage-signature')), Signature: `sig1=:${Buffer.alloc(64).toString('base64url')}:` },
    ],
    ['unknown-key', body('unknown-key'), signed(body('unknown-key'), 'nobody-knows-this-key')],
    ['malformed-input', body('malformed-input'), { ...signed(body('malformed-input')), 'Signature-Input': 'sig1=(((";;;' }],
    [
      'huge-input',
      body('huge-input'),
      (() => {
        const h = signed(body('huge-input'));
        return { ...h, 'Signature-Input': `${h['Signature-Input']};x="${'a'.repeat(12 * 1024)}"` };
      })(),
    ],
    [
      'wrong-tag',
      body('wrong-tag'),
      (() => {
        const h = signed(body('wrong-tag'));
        return { ...h, 'Signature-Input': h['Signature-Input'].replace('adcp/webhook-signing/v1', 'adcp/request-signing/v1') };
      })(),
    ],
    ['replayed', good, goodHeaders],
  ];
  for (const [name, b, headers, alter] of cases) {
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    log(`${name} ${await post(url, alter ? alter(b) : b, { headers: lower })}`);
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
  if (['deliver', 'wrong-path', 'not-json', 'bad-signature'].includes(behaviour)) await pending;
  send(json(m.id, { status: 'submitted', task_id: 'task_1', context: args.context }));
});
