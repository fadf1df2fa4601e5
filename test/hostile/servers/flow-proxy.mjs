#!/usr/bin/env node
// A hostile sandbox seller for the state flows and the task flow's test controller: the reference seller (spawned over stdio, its lines
// passed through) with one misbehaviour inside the media-buy and creative flows, chosen by the first
// argument; the seller's own command line follows it.
//   hang-update      never answers update_media_buy (the flow's pause waits out the call timeout)
//   garbage-read     answers the flows' get_media_buys and list_creatives reads with a result that is no tool result
//   cursor-loop      answers the get_media_buys list (no media_buy_ids) with an empty page that always has
//                    more, each page a fresh cursor, and list_creatives with the same cursor again
//   refuse-booking   refuses every create_media_buy with INVALID_REQUEST
// and in the task flow's comply_test_controller calls (the seller's command line should include --test-controller):
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
let page = 0;

createInterface({ input: seller.stdout, crlfDelay: Infinity }).on('line', (line) => process.stdout.write(line + '\n'));
createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return void seller.stdin.write(line + '\n');
  }
  const name = m.method === 'tools/call' ? m.params?.name : undefined;
  const a = m.params?.arguments ?? {};
  const context = a.context;
  if (behaviour === 'hang-update' && name === 'update_media_buy') return;
  const flowRead =
    (name === 'get_media_buys' && (a.media_buy_ids !== undefined || a.status_filter !== undefined)) ||
    (name === 'list_creatives' && a.filters !== undefined);
  if (behaviour === 'garbage-read' && flowRead) return send({ jsonrpc: '2.0', id: m.id, result: 'garbage \u0000 not a result' });
  if (behaviour === 'cursor-loop' && name === 'get_media_buys' && a.media_buy_ids === undefined && a.status_filter !== undefined)
    return answer(m.id, { status: 'completed', media_buys: [], pagination: { has_more: true, cursor: `c${++page}` }, context });
  if (behaviour === 'cursor-loop' && name === 'list_creatives' && a.filters !== undefined)
    return answer(m.id, { status: 'completed', creatives: [], pagination: { has_more: true, cursor: 'same' }, context });
  if (behaviour === 'refuse-booking' && name === 'create_media_buy')
    return answer(m.id, { adcp_error: { code: 'INVALID_REQUEST', message: 'no bookings today', recovery: 'correctable' }, context }, true);
  const scenario = name === 'comply_test_controller' ? a.scenario : undefined;
  if (behaviour === 'list-garbage' && scenario === 'list_scenarios')
    return send({ jsonrpc: '2.0', id: m.id, result: 'garbage \u0000 not a result' });
  if (behaviour === 'refuse-arm' && scenario === 'force_create_media_buy_arm') {
    const adcp_error = { code: 'PERMISSION_DENIED', message: 'not today', recovery: 'terminal' };
    return answer(m.id, { success: false, error: 'FORBIDDEN', error_detail: 'not today', adcp_error }, true);
  }
  if (behaviour === 'garbage-completion' && scenario === 'force_task_completion')
    return answer(m.id, { status: 'completed', success: 'maybe' });
  if (behaviour === 'hang-completion' && scenario === 'force_task_completion') return;
  seller.stdin.write(line + '\n');
});
process.stdin.on('end', () => seller.stdin.end());
seller.on('exit', (code) => process.exit(code ?? 0));
