#!/usr/bin/env node
// A hostile stdio MCP seller of our own aimed at judging (schemas and answers that make a validator slow,
// hungry or asynchronous). One behaviour per run, chosen by the first argument; `get_products` is the tool.
//   async-schema        outputSchema with `"$async": true`; answers `{products: []}`
//   remote-ref          outputSchema with a remote `$ref` and a `file:` `$ref`
//   redos               outputSchema pattern `^(a+)+$` (linear engine) on `x`; answers x = 40 a's and a b
//   redos-native        outputSchema pattern `^(?=a)(a+)+$` (a lookahead: only the backtracking engine runs it)
//   exponential-anyof   outputSchema of 30 nested anyOf levels whose two branches both descend: 2^30 paths
//   empty-products N    answers N empty products (fails the AdCP schema once per product); no outputSchema
//   wide-items N        outputSchema requiring 40 fields of each item; answers N empty items
//   huge-tools N        tools/list of N extra tools (paged, 100 a page), each with its own outputSchema
//   clean               a small valid answer and outputSchema
import { createInterface } from 'node:readline';

const [behaviour = 'clean', countArg] = process.argv.slice(2);
const count = Number(countArg ?? 0);
const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');

/** Linear in size ($defs), exponential to validate: each level's two branches both descend and fail at the bottom. */
function nestedAnyOf(depth) {
  const $defs = { l0: { type: 'string', minLength: 5 } };
  for (let i = 1; i <= depth; i++) {
    const below = { $ref: `#/$defs/l${i - 1}` };
    $defs[`l${i}`] = { anyOf: [{ allOf: [below, { maxLength: 1000 + i }] }, { allOf: [below, { minLength: i % 3 }] }] };
  }
  return { type: 'object', $defs, properties: { x: { $ref: `#/$defs/l${depth}` } } };
}

const fields = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field_${i}`, { type: 'string' }]));

const outputSchemas = {
  'async-schema': { $async: true, type: 'object', properties: { products: { type: 'array' } } },
  'remote-ref': {
    type: 'object',
    properties: { products: { $ref: 'https://schemas.example/products.json' }, extra: { $ref: 'file:///etc/passwd' } },
  },
  redos: { type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+$' } } },
  'redos-native': { type: 'object', properties: { x: { type: 'string', pattern: '^(?=a)(a+)+$' } } },
  'exponential-anyof': nestedAnyOf(30),
  'wide-items': {
    type: 'object',
    properties: { items: { type: 'array', items: { type: 'object', required: Object.keys(fields), properties: fields } } },
  },
  clean: { type: 'object', properties: { products: { type: 'array' } }, required: ['products'] },
};
outputSchemas['huge-tools'] = outputSchemas.clean;

function answer() {
  switch (behaviour) {
    case 'redos':
    case 'redos-native':
      return { x: `${'a'.repeat(40)}b` };
    case 'exponential-anyof':
      return { x: 'abc' };
    case 'empty-products':
      return { products: Array.from({ length: count }, () => ({})) };
    case 'wide-items':
      return { items: Array.from({ length: count }, () => ({})) };
    default:
      return { products: [] };
  }
}

const mainTool = () => {
  const tool = { name: 'get_products', inputSchema: { type: 'object' } };
  if (outputSchemas[behaviour]) tool.outputSchema = outputSchemas[behaviour];
  return tool;
};

/** Page `cursor` of the tool list: get_products first, then the extra tools, 100 a page. */
function toolsPage(cursor) {
  const page = Number(cursor ?? 0);
  const extra = behaviour === 'huge-tools' ? count : 0;
  const tools = page === 0 ? [mainTool()] : [];
  for (let i = page * 100; i < Math.min(extra, (page + 1) * 100); i++) {
    const props = Object.fromEntries(
      Array.from({ length: 30 }, (_, k) => [`p${i}_${k}`, { type: 'string', maxLength: 100 + k, description: 'd'.repeat(60) }]),
    );
    tools.push({
      name: `tool_${i}`,
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: props, required: Object.keys(props).slice(0, 5) },
    });
  }
  const more = (page + 1) * 100 < extra;
  return { tools, ...(more ? { nextCursor: String(page + 1) } : {}) };
}

createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on('line', (line) => {
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    if (m.id === undefined) return;
    if (m.method === 'initialize') {
      return send({
        jsonrpc: '2.0',
        id: m.id,
        result: {
          protocolVersion: m.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: `judging-${behaviour}`, version: '1' },
        },
      });
    }
    if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: toolsPage(m.params?.cursor) });
    if (m.method === 'tools/call') {
      const structuredContent = answer();
      return send({
        jsonrpc: '2.0',
        id: m.id,
        result: { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent },
      });
    }
    send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } });
  })
  .on('close', () => process.exit(0));
