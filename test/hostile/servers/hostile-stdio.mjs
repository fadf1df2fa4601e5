#!/usr/bin/env node
// A hostile stdio MCP seller of the battery: one misbehaviour per process, named by the first argument
// (`node hostile-stdio.mjs <behaviour> --trap=URL --seen=FILE`). Every string it controls carries the
// hostile text and the token the config gave it (env HOSTILE_TOKEN); `--seen` records what it received.
// Unless its behaviour says otherwise it is a minimal seller: initialize, tools/list with one tool
// (get_adcp_capabilities), and tools/call answered with a capabilities-shaped payload.
//
// Transport and process:
//   notification-flood     tools/call: notifications as fast as the pipe takes them, never an answer
//   answers-before-request after tools/list, answers the next five request ids before they are sent
//   oversize-line          tools/call: a 50 MiB line (the cap is 1 MiB), then nothing
//   stdout-junk-flood      tools/call: endless non-JSON lines on stdout, never an answer
//   stderr-1gib            tools/call: 1 GiB on stderr, then the answer
//   exit-mid-call          tools/call: hostile text on stderr, exit 3
//   closes-stdin           closes its stdin at once and keeps running
//   sigstop                tools/call: stops itself (SIGSTOP)
//   ignore-sigterm         ignores SIGTERM and the end of stdin; answers normally
//   ignore-sigterm-hang    ignores SIGTERM and the end of stdin; never answers tools/call
//   grandchild-holds-pipes tools/call: starts a child holding stdout / stderr (same process group), exits
//   detached-grandchild    tools/call: the same child in a session of its own (escapes the group), exits
// Answers:
//   duplicate-keys         the answer's JSON repeats keys: isError true then false, two structuredContent
//   deep-nesting           structuredContent nested 200k arrays deep (400 KB)
//   big-answer             an 11.9 MB structuredContent (run it with maxBytes raised)
//   many-keys              a 15.9 MB structuredContent holding one object of 1,000,000 keys (maxBytes raised)
//   retry-after-1e400      an AdCP error with "retry_after": 1e400 (JSON.parse makes it Infinity)
//   products-120k          get_products: 120k empty products (360 KB) that fail the AdCP schema
//   prototype-keys         __proto__ / constructor / prototype keys in the answer
//   prototype-keys-deep    a __proto__ key 300 levels down, after 200k other values
// Text:
//   invalid-utf8           raw invalid UTF-8 bytes in serverInfo, tool names and answers
//   lone-surrogates        lone UTF-16 surrogates (\ud800, \udfff) in serverInfo, tool names and answers
//   nul-ansi-tool-names    tools/list names with NUL, ANSI escapes and bidi overrides
//   ansi-error-message     an AdCP error whose message, suggestion and details carry NUL, ANSI escapes, bidi
//   ansi-stderr-crash      hostile text and the token on stderr, then exit 1 before initialize
//   ansi-initialize        initialize with a protocolVersion made of escape sequences
// AdCP 3.1 negotiation and errors (lists get_adcp_capabilities, get_products, list_creative_formats):
//   adcp31-hostile         capabilities declaring 20k supported_versions (hostile text, the token, a 100 KB
//                          string, objects) and 10k supported_protocols, echoing an object as adcp_version; every
//                          other call answered with an error: a vendor-shaped code carrying hostile text, 4k
//                          issues (a hostile pointer), a hostile field, a 50 KB adcp_version echo
// Seller-declared schemas (tools/list outputSchema of get_adcp_capabilities):
//   redos-pattern          "pattern": "^(a+)+$" matched against 40 a's and a b
//   recursive-ref          a schema that refers to itself without end, and an instance nested to match
//   remote-ref             "$ref" to the trap host (never to be fetched)
//   file-ref               "$ref" to file:///etc/passwd
//   deep-schema            an outputSchema nested 10k levels deep
//   deep-schema-200k       an outputSchema nested 200k levels deep (an 8 MB tools/list: maxBytes raised)
//   schema-error-storm     an outputSchema whose items must be strings; answers 400k numbers (400k errors)
//   async-schema           "$async": true
//   huge-tools-list        2000 tools, each with a large outputSchema
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  callResult,
  capabilities,
  errorResult,
  initializeResult,
  NASTY,
  options,
  rpcError,
  rpcResult,
  seenRecorder,
  tool,
} from './common.mjs';

const behaviour = process.argv[2] ?? 'default';
const { trap, seen: seenFile } = options();
const token = process.env.HOSTILE_TOKEN ?? '';
const seen = seenRecorder(seenFile);
seen({ behaviour, token, pid: process.pid });

/** A grandchild that ignores SIGTERM and holds the pipes; it ends itself after 90 s, should a test fail to reap it. */
const GRANDCHILD = 'process.on("SIGTERM",()=>{});setInterval(()=>{},60000);setTimeout(()=>process.exit(0),90000)';
const out = (text) => process.stdout.write(text);
const send = (msg) => out(JSON.stringify(msg) + '\n');
const never = () => setInterval(() => {}, 60_000);

process.stderr.write(`hostile-stdio ${behaviour} starting with ${token} ${NASTY}\n`);

if (behaviour === 'ansi-stderr-crash') {
  process.stderr.write(`FATAL: \u001b[2J\u001b[H${NASTY} token=${token}\n`);
  process.exit(1);
}
if (behaviour === 'closes-stdin') {
  process.stdin.destroy();
  never();
}
if (behaviour === 'ignore-sigterm' || behaviour === 'ignore-sigterm-hang') {
  process.on('SIGTERM', () => process.stderr.write(`SIGTERM ignored ${NASTY}\n`));
  never(); // the end of stdin does not end it either
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('close', () => {
  if (!['ignore-sigterm', 'ignore-sigterm-hang', 'closes-stdin'].includes(behaviour)) process.exit(0);
});
lines.on('line', (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return;
  }
  if (m.id === undefined || m.method === undefined) return; // notifications, and our answers to nothing
  if (m.method === 'initialize') return initialize(m);
  if (m.method === 'tools/list') return toolsList(m);
  if (m.method === 'tools/call') return call(m);
  return send(rpcError(m.id, -32601, `no ${m.method} ${NASTY}`));
});

function initialize(m) {
  if (behaviour === 'ansi-initialize') return send(initializeResult(m.id, `\u001b]0;${token}\u0007\u001b[2J${NASTY}`, token));
  if (behaviour === 'invalid-utf8') {
    const bad = '\\u0000'; // an escaped NUL, and raw bytes that are no UTF-8 at all spliced in below
    const text = JSON.stringify(initializeResult(m.id, m.params?.protocolVersion, token)).replace(
      '"name":"hostile',
      `"name":"hostile ${bad} @@BAD@@`,
    );
    return writeWithInvalidUtf8(text);
  }
  if (behaviour === 'lone-surrogates') {
    return out(
      JSON.stringify(initializeResult(m.id, m.params?.protocolVersion, token)).replace(
        '"name":"hostile',
        '"name":"hostile \\ud800 \\udfff x\\udbff',
      ) + '\n',
    );
  }
  return send(initializeResult(m.id, m.params?.protocolVersion, token));
}

function toolsList(m) {
  const base = tool('get_adcp_capabilities', token);
  if (behaviour === 'nul-ansi-tool-names') {
    const names = [
      'get_adcp_capabilities',
      `get\u0000products`,
      `\u001b[31mred_tool\u001b[0m`,
      `evil\u202etxt.exe`,
      `line\nFORGED_LINE tool`,
      `${token}`,
    ];
    return send(rpcResult(m.id, { tools: names.map((n) => tool(n, token)) }));
  }
  if (behaviour === 'invalid-utf8') {
    const text = JSON.stringify(rpcResult(m.id, { tools: [base, tool('bad_@@BAD@@_name', token)] }));
    return writeWithInvalidUtf8(text);
  }
  if (behaviour === 'lone-surrogates') {
    const text = JSON.stringify(rpcResult(m.id, { tools: [base, tool('lone_SURROGATE_name', token)] })).replace('SURROGATE', '\\ud800');
    return out(text + '\n');
  }
  if (behaviour === 'huge-tools-list') {
    const tools = Array.from({ length: 2000 }, (_, i) =>
      tool(i === 0 ? 'get_adcp_capabilities' : `tool_${i}`, token, { outputSchema: largeSchema(i) }),
    );
    return send(rpcResult(m.id, { tools }));
  }
  if (behaviour === 'adcp31-hostile') {
    const tools = ['get_adcp_capabilities', 'get_products', 'list_creative_formats'].map((n) => tool(n, token));
    return send(rpcResult(m.id, { tools }));
  }
  const outputSchema = sellerSchema();
  if (outputSchema === '@@DEEP_SCHEMA@@') {
    // 10k levels of nested object schemas (~400 KB): a compiler that recurses per level overflows.
    const levels = behaviour === 'deep-schema-200k' ? 200_000 : 10_000;
    const deep = '{"type":"object","properties":{"a":'.repeat(levels) + '{"type":"string"}' + '}}'.repeat(levels);
    return out(JSON.stringify(rpcResult(m.id, { tools: [{ ...base, outputSchema }] })).replace('"@@DEEP_SCHEMA@@"', deep) + '\n');
  }
  if (behaviour === 'answers-before-request') {
    // The next requests will be ids m.id + 1 …: answer them now, before any was sent — written before the
    // tools/list answer, so they arrive before the harness can send anything (else, on a loaded machine,
    // an "early" answer could land after its request went out and be a real answer).
    for (let i = 1; i <= 5; i++) send(rpcResult(m.id + i, callResult(capabilities(token, { early: i }))));
  }
  send(rpcResult(m.id, { tools: [outputSchema ? { ...base, outputSchema } : base] }));
}

/** The outputSchema of a schema behaviour (undefined: none declared). */
function sellerSchema() {
  switch (behaviour) {
    case 'redos-pattern':
      return { type: 'object', properties: { note: { type: 'string', pattern: '^(a+)+$' } } };
    case 'recursive-ref':
      return {
        type: 'object',
        $defs: { loop: { anyOf: [{ $ref: '#/$defs/loop' }, { type: 'array', items: { $ref: '#/$defs/loop' } }] } },
        properties: { deep: { $ref: '#/$defs/loop' } },
      };
    case 'remote-ref':
      return { type: 'object', properties: { note: { $ref: `${trap}schemas/note.json?token=${encodeURIComponent(token)}` } } };
    case 'file-ref':
      return { type: 'object', properties: { note: { $ref: 'file:///etc/passwd' } } };
    case 'deep-schema':
    case 'deep-schema-200k':
      return '@@DEEP_SCHEMA@@'; // spliced in as text by toolsList (JSON.stringify itself overflows at this depth)
    case 'async-schema':
      return { $async: true, type: 'object', properties: { note: { type: 'string' } } };
    case 'schema-error-storm':
      return { type: 'object', properties: { storm: { type: 'array', items: { type: 'string' } } } };
    default:
      return undefined;
  }
}

/** An outputSchema of ~6 KB: many properties with patterns and nested objects. */
function largeSchema(i) {
  const properties = {};
  for (let p = 0; p < 40; p++) {
    properties[`field_${i}_${p}`] = {
      type: 'object',
      properties: { a: { type: 'string', pattern: `^[a-z]{1,${p + 1}}$` }, b: { type: 'array', items: { type: 'integer', minimum: p } } },
    };
  }
  return { type: 'object', properties };
}

function call(m) {
  const name = m.params?.name;
  switch (behaviour) {
    case 'notification-flood':
      return flood(
        () =>
          JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `flood ${token} ${NASTY}` } }) +
          '\n',
      );
    case 'answers-before-request':
      return; // "already answered"
    case 'oversize-line': {
      const mib = 'x'.repeat(1024 * 1024);
      return writeChunks(50, () => mib); // and no newline, ever
    }
    case 'stdout-junk-flood':
      return flood(() => `junk line ${token} ${NASTY}\n`);
    case 'stderr-1gib': {
      const chunk = 'e'.repeat(1024 * 1024 - 1) + '\n';
      process.stderr.write(`begin ${token} ${NASTY}\n`);
      return writeChunks(
        1024,
        () => chunk,
        () => send(rpcResult(m.id, callResult(capabilities(token)))),
        process.stderr,
      );
    }
    case 'exit-mid-call':
      process.stderr.write(`crashing ${token} ${NASTY}\n`, () => process.exit(3));
      return;
    case 'sigstop':
      process.kill(process.pid, 'SIGSTOP');
      return;
    case 'ignore-sigterm-hang':
      return;
    case 'grandchild-holds-pipes':
    case 'detached-grandchild': {
      const child = spawn(process.execPath, ['-e', GRANDCHILD], {
        stdio: ['ignore', 'inherit', 'inherit'],
        detached: behaviour === 'detached-grandchild',
      });
      seen({ grandchild: child.pid });
      process.stderr.write(`left grandchild ${child.pid} ${NASTY}\n`, () => process.exit(0));
      return;
    }
    case 'duplicate-keys': {
      const err = JSON.stringify(errorResult(token, { code: 'RATE_LIMITED', recovery: 'transient', retry_after: 5 }).structuredContent);
      const ok = JSON.stringify(capabilities(token));
      // First-wins parsers see an error; JSON.parse (last wins) sees a success.
      const text =
        `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":{"isError":true,"structuredContent":${err},` +
        `"content":[{"type":"text","text":${JSON.stringify(err)}}],"isError":false,"structuredContent":${ok}}}`;
      return out(text + '\n');
    }
    case 'deep-nesting': {
      const depth = 200_000;
      const head = JSON.stringify(rpcResult(m.id, callResult(capabilities(token, { deep: '@@DEEP@@' }))));
      return out(head.split('"@@DEEP@@"').join('['.repeat(depth) + `"${token}"` + ']'.repeat(depth)) + '\n');
    }
    case 'big-answer': {
      const catalog = Array.from({ length: 44_000 }, (_, i) => ({
        id: `item_${i}`,
        name: `Item ${i} ${token}`,
        description: 'd'.repeat(200),
        tags: ['a', 'b', 'c'],
      }));
      return send(
        rpcResult(m.id, { content: [{ type: 'text', text: 'a large catalog' }], structuredContent: capabilities(token, { catalog }) }),
      );
    }
    case 'many-keys': {
      const keys = Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":0`).join(',');
      const text = JSON.stringify(rpcResult(m.id, callResult(capabilities(token, { wide: '@@W@@' }))));
      return out(text.replace('"@@W@@"', `{${keys}}`) + '\n');
    }
    case 'schema-error-storm': {
      const text = JSON.stringify(rpcResult(m.id, callResult(capabilities(token, { storm: '@@S@@' }))));
      return out(text.replace('"@@S@@"', `[${Array(400_000).fill('0').join(',')}]`) + '\n');
    }
    case 'retry-after-1e400': {
      const text = JSON.stringify(
        rpcResult(m.id, errorResult(token, { code: 'RATE_LIMITED', recovery: 'transient', retry_after: '@@R@@' })),
      );
      return out(text.split('"@@R@@"').join('1e400') + '\n');
    }
    case 'products-120k': {
      const products = '[' + Array(120_000).fill('{}').join(',') + ']';
      const text = JSON.stringify(
        rpcResult(m.id, { content: [{ type: 'text', text: 'products' }], structuredContent: { products: '@@P@@', status: 'completed' } }),
      );
      return out(text.replace('"@@P@@"', products) + '\n');
    }
    case 'prototype-keys': {
      const text = JSON.stringify(rpcResult(m.id, callResult(capabilities(token))));
      const evil = `"__proto__":{"isError":true,"polluted":"${token}"},"constructor":{"prototype":{"polluted":true}},`;
      return out(text.replace('"structuredContent":{', `"structuredContent":{${evil}`) + '\n');
    }
    case 'prototype-keys-deep': {
      // A __proto__ key 300 levels down, after 200k harmless values: where a bounded walk stops looking.
      let deep = JSON.parse('{"__proto__":{"polluted":true}}');
      for (let i = 0; i < 300; i++) deep = { d: deep };
      const padding = Array.from({ length: 200_000 }, () => 0);
      return send(rpcResult(m.id, callResult(capabilities(token, { padding, deep }))));
    }
    case 'ansi-error-message':
      return send(rpcResult(m.id, errorResult(token, { suggestion: `retry \u0000 ${NASTY}`, details: { why: NASTY } })));
    case 'invalid-utf8':
      return writeWithInvalidUtf8(JSON.stringify(rpcResult(m.id, errorResult(token, { message: `bad @@BAD@@ bytes ${token}` }))));
    case 'lone-surrogates': {
      const text = JSON.stringify(rpcResult(m.id, errorResult(token, { message: `lone @@S@@ surrogates ${token}` })));
      return out(text.split('@@S@@').join('\\ud800\\udbff x \\udc00') + '\n');
    }
    case 'adcp31-hostile':
      return send(rpcResult(m.id, adcp31Hostile(name, m.params?.arguments ?? {})));
    case 'redos-pattern':
      return send(rpcResult(m.id, callResult({ ...capabilities(token), note: 'a'.repeat(40) + 'b' })));
    case 'recursive-ref': {
      let deep = [];
      for (let i = 0; i < 2000; i++) deep = [deep];
      return send(rpcResult(m.id, callResult({ ...capabilities(token), deep })));
    }
    default:
      return send(rpcResult(m.id, callResult(capabilities(token, name === undefined ? {} : { tool: name }))));
  }
}

/** adcp31-hostile: hostile release lists and echoes, and errors whose every 3.1 field is hostile and huge. */
function adcp31Hostile(name, args) {
  if (name === 'get_adcp_capabilities') {
    // Under the 1 MiB cap (the answer is judged, not cut): ~20k versions, a 100 KB one, ~10k protocols.
    const supported = ['3.0', '3.1', `3.${NASTY}`, token, 'x'.repeat(100_000), { v: NASTY }, 3.1, null];
    for (let i = 0; supported.length < 20_000; i++) supported.push(`3.${i}`);
    const protocols = ['media_buy', NASTY, token];
    while (protocols.length < 10_000) protocols.push(`p_${protocols.length}`);
    return callResult(
      capabilities(token, {
        adcp: { major_versions: [3], supported_versions: supported },
        supported_protocols: protocols,
        adcp_version: { evil: NASTY },
      }),
    );
  }
  // 4k issues (the text item repeats them: the answer stays under the 1 MiB cap), the first with hostile text.
  const issues = Array.from({ length: 4_000 }, (_, i) => ({ pointer: i === 0 ? `/a~2/${NASTY}` : `/a/${i}`, message: `${token}` }));
  const echo = `${'x'.repeat(50_000)}${token}`;
  const error = {
    adcp_error: {
      code: `X_EVIL_${NASTY}`,
      message: `bad ${token}`,
      recovery: 'correctable',
      field: `packages[0].${NASTY}`,
      issues,
    },
    adcp_version: echo,
    ...(args.context !== undefined ? { context: args.context } : {}),
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ adcp_error: error.adcp_error }) }], structuredContent: error };
}

/** Write what `next()` gives as fast as the pipe drains, for as long as the process lives. */
function flood(next) {
  const pump = () => {
    while (process.stdout.write(next()));
    process.stdout.once('drain', pump);
  };
  pump();
}

/** `count` chunks from `make()`, respecting backpressure, then `done()`. */
function writeChunks(count, make, done = () => {}, stream = process.stdout) {
  let left = count;
  const pump = () => {
    while (left > 0) {
      left--;
      if (!stream.write(make())) return void stream.once('drain', pump);
    }
    done();
  };
  pump();
}

/** A JSON line with every @@BAD@@ replaced by bytes that are not UTF-8 (a lone continuation, an overlong NUL, 0xFF). */
function writeWithInvalidUtf8(text) {
  const parts = text.split('@@BAD@@').map((p) => Buffer.from(p, 'utf8'));
  const bad = Buffer.from([0x80, 0xc0, 0x80, 0xff, 0xfe, 0xed, 0xa0, 0x80]);
  const chunks = [];
  parts.forEach((p, i) => chunks.push(...(i === 0 ? [p] : [bad, p])));
  process.stdout.write(Buffer.concat([...chunks, Buffer.from('\n')]));
}
