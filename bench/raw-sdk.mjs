#!/usr/bin/env node
// The raw official MCP SDK doing what the harness does, as a seller developer would write it with the
// SDK's README: Client + StreamableHTTPClientTransport / StdioClientTransport, listTools(), callTool().
// The counterpart bench/speed.mjs times against the harness, in child processes of the same shape.
//   node bench/raw-sdk.mjs calls URL N                 one session, N × get_products, close
//   node bench/raw-sdk.mjs once-stdio TOOL CMD ARGS…   spawn CMD, connect, call TOOL once, close
//   node bench/raw-sdk.mjs replay FILE URLS_FILE CONCURRENCY
//        FILE: a harness recording (`run --record FILE`, JSONL); URLS_FILE: JSON {agents:[{name, url}]} (the
//        harness's own config will do). Per recorded agent, CONCURRENCY sessions at a time: connect,
//        listTools, every recorded tools/call (same name and arguments, same order), close. Calls the harness
//        made as a concurrent pair (the idempotency scenario) are replayed one after the other.
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

/** One session: connect, listTools, each call in order (`{name, arguments}` as tools/call params), close. */
async function httpSession(url, calls) {
  const client = new Client({ name: 'raw-sdk-bench', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  await client.listTools();
  let errors = 0;
  for (const call of calls) {
    try {
      await client.callTool(call);
    } catch {
      errors++; // the SDK throws where the harness records (e.g. an error result that misses the outputSchema)
    }
  }
  await transport.terminateSession().catch(() => {});
  await client.close();
  return errors;
}

/** The recorded tools/call params per agent, in recording order: [{name, calls:[{name, arguments}]}]. */
function recordedSessions(file) {
  const sessions = [];
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (!text.trim()) continue;
    const record = JSON.parse(text);
    if (record.type === 'agent') sessions.push({ name: record.agent.name, calls: [] });
    else if (record.type === 'exchange') sessions.at(-1).calls.push({ name: record.request.name, arguments: record.request.arguments });
  }
  return sessions;
}

if (mode === 'calls') {
  const [url, n] = rest;
  const calls = Array.from({ length: Number(n) }, (_, i) => ({
    name: 'get_products',
    arguments: { ...GET_PRODUCTS, context: { correlation_id: `raw.${i}` } },
  }));
  const errors = await httpSession(url, calls);
  console.log(JSON.stringify({ ms: performance.now() - started, errors }));
} else if (mode === 'once-stdio') {
  const [tool, command, ...args] = rest;
  const client = new Client({ name: 'raw-sdk-bench', version: '1.0.0' });
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
  await client.connect(transport);
  await client.callTool({ name: tool, arguments: tool === 'get_products' ? GET_PRODUCTS : {} });
  await client.close();
  console.log(JSON.stringify({ ms: performance.now() - started }));
} else if (mode === 'replay') {
  const [file, urlsFile, concurrency] = rest;
  const urls = new Map(JSON.parse(readFileSync(urlsFile, 'utf8')).agents.map((a) => [a.name, a.url]));
  const sessions = recordedSessions(file);
  for (const s of sessions) if (!urls.has(s.name)) throw new Error(`${urlsFile} has no url for agent ${s.name}`);
  let next = 0;
  let errors = 0;
  let calls = 0;
  const worker = async () => {
    while (next < sessions.length) {
      const s = sessions[next++];
      calls += s.calls.length;
      errors += await httpSession(urls.get(s.name), s.calls);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Number(concurrency) || 1) }, worker));
  console.log(JSON.stringify({ ms: performance.now() - started, sessions: sessions.length, calls, errors }));
} else {
  console.error('usage: raw-sdk.mjs calls URL N | once-stdio TOOL CMD ARGS… | replay FILE URLS_FILE CONCURRENCY');
  process.exit(2);
}
