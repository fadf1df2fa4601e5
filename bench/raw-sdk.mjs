#!/usr/bin/env node
// The raw official MCP SDK doing what the harness does, as a seller developer would write it with the
// SDK's README: Client + StreamableHTTPClientTransport / StdioClientTransport, listTools(), callTool().
// The counterpart bench/speed.mjs times against the harness, in child processes of the same shape.
//   node bench/raw-sdk.mjs calls URL N                 one session, N × get_products, close
//   node bench/raw-sdk.mjs once-stdio TOOL CMD ARGS…   spawn CMD, connect, call TOOL once, close
//   node bench/raw-sdk.mjs fleet FILE                  FILE: {agents:[{url}], concurrency, probes:[{tool,arguments}]};
//                                                      every agent's session: connect, listTools, the probes, close
// Prints one JSON line: {"ms": wall time inside the process, …}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';

const GET_PRODUCTS = {
  buying_mode: 'brief',
  brief: 'Conformance probe: display and online video for a sports-equipment launch in the US, next quarter.',
};
const [mode, ...rest] = process.argv.slice(2);
const started = performance.now();

async function httpSession(url, probes) {
  const client = new Client({ name: 'raw-sdk-bench', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  await client.listTools();
  let errors = 0;
  for (const [i, p] of probes.entries()) {
    try {
      await client.callTool({ name: p.tool, arguments: { ...p.arguments, context: { correlation_id: `raw.${i}` } } });
    } catch {
      errors++; // the SDK throws where the harness records (e.g. an error result that misses the outputSchema)
    }
  }
  await transport.terminateSession().catch(() => {});
  await client.close();
  return errors;
}

if (mode === 'calls') {
  const [url, n] = rest;
  const probes = Array.from({ length: Number(n) }, () => ({ tool: 'get_products', arguments: GET_PRODUCTS }));
  const errors = await httpSession(url, probes);
  console.log(JSON.stringify({ ms: performance.now() - started, errors }));
} else if (mode === 'once-stdio') {
  const [tool, command, ...args] = rest;
  const client = new Client({ name: 'raw-sdk-bench', version: '1.0.0' });
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
  await client.connect(transport);
  await client.callTool({ name: tool, arguments: tool === 'get_products' ? GET_PRODUCTS : {} });
  await client.close();
  console.log(JSON.stringify({ ms: performance.now() - started }));
} else if (mode === 'fleet') {
  const { agents, concurrency, probes } = JSON.parse(readFileSync(rest[0], 'utf8'));
  let next = 0;
  let errors = 0;
  const worker = async () => {
    while (next < agents.length) errors += await httpSession(agents[next++].url, probes);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  console.log(JSON.stringify({ ms: performance.now() - started, errors }));
} else {
  console.error('usage: raw-sdk.mjs calls URL N | once-stdio TOOL CMD ARGS… | fleet FILE');
  process.exit(2);
}
