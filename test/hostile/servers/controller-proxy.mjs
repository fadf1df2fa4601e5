#!/usr/bin/env node
// A hostile test controller: the reference seller (spawned over stdio with its own command line, which
// should include --test-controller) with one misbehaviour of comply_test_controller, chosen by the first
// argument:
//   list-garbage        answers list_scenarios with a result that is no tool result
//   refuse-arm          refuses force_create_media_buy_arm (ControllerError FORBIDDEN, isError)
//   garbage-completion  answers force_task_completion with {success: "maybe"} and does not complete the task
//   hang-completion     never answers force_task_completion
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [behaviour, command, ...args] = process.argv.slice(2);
const seller = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');
const answer = (id, structuredContent, isError = false) =>
  send({
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent, ...(isError ? { isError } : {}) },
  });

createInterface({ input: seller.stdout, crlfDelay: Infinity }).on('line', (line) => process.stdout.write(line + '\n'));
createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return void seller.stdin.write(line + '\n');
  }
  const a = m.method === 'tools/call' && m.params?.name === 'comply_test_controller' ? (m.params.arguments ?? {}) : undefined;
  const scenario = a?.scenario;
  if (behaviour === 'list-garbage' && scenario === 'list_scenarios')
    return send({ jsonrpc: '2.0', id: m.id, result: 'garbage \u0000 not a result' });
  if (behaviour === 'refuse-arm' && scenario === 'force_create_media_buy_arm')
    return answer(
      m.id,
      {
        success: false,
        error: 'FORBIDDEN',
        error_detail: 'not today',
        adcp_error: { code: 'PERMISSION_DENIED', message: 'not today', recovery: 'terminal' },
      },
      true,
    );
  if (behaviour === 'garbage-completion' && scenario === 'force_task_completion')
    return answer(m.id, { status: 'completed', success: 'maybe' });
  if (behaviour === 'hang-completion' && scenario === 'force_task_completion') return;
  seller.stdin.write(line + '\n');
});
process.stdin.on('end', () => seller.stdin.end());
seller.on('exit', (code) => process.exit(code ?? 0));
