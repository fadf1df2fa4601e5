#!/usr/bin/env node
// A stdio seller that repeats back everything the config gave it: its command line and working
// directory (in stderr, a junk stdout line, serverInfo, every answer) and each call's arguments (in
// structuredContent, the text content, and an error message). Before answering anything it writes what
// it received to the file named by --seen=<path>, so a test can prove the values really reached it.
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const argv = process.argv.slice(2);
const seenFile = argv.find((a) => a.startsWith('--seen='))?.slice('--seen='.length);
const seen = { argv, cwd: process.cwd(), calls: [] };
const remember = () => seenFile && writeFileSync(seenFile, JSON.stringify(seen));
remember();
const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');
const who = `argv=${argv.join(' ')} cwd=${process.cwd()}`;

process.stderr.write(`echo-config: started with ${who}\n`);
process.stdout.write(`echo-config starting (${who})\n`); // not JSON-RPC: the harness records it as junk

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
          serverInfo: { name: 'echo-config', version: '1' },
          instructions: who,
        },
      });
    }
    if (m.method === 'tools/list') {
      const tool = (name) => ({ name, description: who, inputSchema: { type: 'object' } });
      return send({ jsonrpc: '2.0', id: m.id, result: { tools: [tool('get_adcp_capabilities'), tool('get_products')] } });
    }
    if (m.method === 'tools/call') {
      const args = m.params?.arguments ?? {};
      seen.calls.push(args);
      remember();
      process.stderr.write(`echo-config: ${m.params?.name} called with ${JSON.stringify(args)}\n`);
      const echoed = { argv, cwd: process.cwd(), arguments: args, ...(args.context === undefined ? {} : { context: args.context }) };
      if (m.params?.name === 'get_products') {
        const message = `no products for ${JSON.stringify(args)} (${who})`;
        const error = { adcp_error: { code: 'INVALID_REQUEST', message, recovery: 'correctable' }, echoed };
        return send({
          jsonrpc: '2.0',
          id: m.id,
          result: { isError: true, content: [{ type: 'text', text: JSON.stringify(error) }], structuredContent: error },
        });
      }
      return send({
        jsonrpc: '2.0',
        id: m.id,
        result: { content: [{ type: 'text', text: JSON.stringify(echoed) }], structuredContent: echoed },
      });
    }
    return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `${m.method} not found (${who})` } });
  })
  .on('close', () => process.exit(0));
