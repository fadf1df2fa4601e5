#!/usr/bin/env node
// A hostile stdio sandbox seller of our own for the idempotency walk: it books, replays, conflicts and
// refuses like a conformant seller, except on the concurrent pair (a create_media_buy arriving while
// another with its key is still being booked), chosen by the first argument:
//   pair-hangs     never answers either request of the pair (the process and the session stay up)
//   pair-garbage   answers both with a JSON-RPC result that is not an object
import { createInterface } from 'node:readline';

const behaviour = process.argv[2] ?? '';
const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');
// The request's context is echoed, as a conformant seller does: only the pair misbehaves.
let context;
const json = (id, body, isError = false, echo = context) => {
  const payload = echo === undefined ? body : { ...body, context: echo };
  return {
    jsonrpc: '2.0',
    id,
    result: {
      content: [{ type: 'text', text: JSON.stringify(payload) }],
      structuredContent: payload,
      ...(isError ? { isError: true } : {}),
    },
  };
};
const refuse = (id, code, message) => json(id, { adcp_error: { code, message, recovery: 'correctable' } }, true);
const object = { type: 'object' };
const TOOLS = ['get_adcp_capabilities', 'get_products', 'create_media_buy', 'update_media_buy'].map((name) => ({
  name,
  inputSchema: object,
}));
const PRODUCT = {
  product_id: 'p1',
  name: 'Run of site',
  pricing_options: [{ pricing_option_id: 'po1', pricing_model: 'cpm', fixed_price: 5, currency: 'USD' }],
};

const cache = new Map(); // key → { body, answer }
const inFlight = new Map(); // key → request ids waiting
let booked = 0;

function book(m) {
  const args = m.params.arguments ?? {};
  const key = args.idempotency_key;
  if (typeof key !== 'string' || !/^[A-Za-z0-9_.:-]{16,255}$/.test(key))
    return send(refuse(m.id, 'INVALID_REQUEST', 'idempotency_key is missing or malformed'));
  const { context: _c, idempotency_key: _k, ...rest } = args;
  const body = JSON.stringify(rest);
  const cached = cache.get(key);
  if (cached)
    return send(
      cached.body === body ? json(m.id, { ...cached.answer, replayed: true }) : refuse(m.id, 'IDEMPOTENCY_CONFLICT', 'key reused'),
    );
  if (inFlight.has(key)) {
    inFlight.get(key).push(m.id);
    if (behaviour === 'pair-garbage') for (const id of inFlight.get(key)) send({ jsonrpc: '2.0', id, result: 'garbage' });
    return; // pair-hangs: neither is ever answered
  }
  if (args.packages?.[0]?.product_id !== PRODUCT.product_id) return send(refuse(m.id, 'PRODUCT_NOT_FOUND', 'no such product'));
  inFlight.set(key, [m.id]);
  const echo = context;
  setTimeout(() => {
    const waiting = inFlight.get(key);
    if (waiting.length > 1) return; // the pair: see above
    inFlight.delete(key);
    const answer = { status: 'completed', media_buy_id: `mb_${++booked}`, packages: [{ package_id: `pkg_${booked}` }] };
    cache.set(key, { body, answer });
    send(json(m.id, answer, false, echo));
  }, 50);
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
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
        serverInfo: { name: 'idempotency-pair', version: '1' },
      },
    });
  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: { tools: TOOLS } });
  if (m.method !== 'tools/call') return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } });
  context = m.params?.arguments?.context;
  switch (m.params?.name) {
    case 'get_adcp_capabilities':
      return send(
        json(m.id, {
          status: 'completed',
          adcp: { major_versions: [3], idempotency: { supported: true, replay_ttl_seconds: 86400 } },
          supported_protocols: ['media_buy'],
        }),
      );
    case 'get_products':
      return send(json(m.id, { status: 'completed', products: [PRODUCT] }));
    case 'create_media_buy':
      return book(m);
    case 'update_media_buy':
      return send(json(m.id, { status: 'completed', media_buy_id: m.params.arguments?.media_buy_id, media_buy_status: 'canceled' }));
    default:
      return send(refuse(m.id, 'UNSUPPORTED_FEATURE', 'no such tool'));
  }
});
