// transport.call — the harness's own rule: every tools/call it sends gets an answer at all. Without it a
// call that timed out, overflowed the byte cap or lost its connection would leave every other check
// with nothing to judge, and a session cut short would leave calls that never ran.
import { defineCheck, fail, pass } from '../check.ts';

export default defineCheck({
  id: 'transport.call',
  scope: 'exchange',
  severity: 'MUST',
  live: true,
  harnessAddition: true,
  judgesUnanswered: true,
  title: 'every tools/call gets a JSON-RPC answer within the call timeout, under the byte cap, connection intact',
  spec: { label: "adcp-conformance's own rule (MCP lifecycle timeouts; the harness's byte cap)", url: 'docs/checks.md#transportcall' },
  fix: 'answer every tools/call within the timeout; keep answers under the byte cap (`maxBytes`); never exit or drop the connection mid-call',
  judge(x) {
    if (x.outcome.kind !== 'transport-error') return pass();
    const f = x.outcome.failure;
    const seen =
      typeof f.bytesSeen === 'number' && !f.message.includes(`(${f.bytesSeen} bytes read)`) ? ` (${f.bytesSeen} bytes read)` : '';
    return fail('/outcome/failure', 'a JSON-RPC result or error within the call timeout and byte cap', `${f.kind}: ${f.message}${seen}`);
  },
  // A session cut short (agent timeout, crash) leaves calls that never ran.
  judgeSession(a) {
    if (!a.aborted) return [];
    return [{ subject: 'session', verdict: fail('/aborted', 'the session to run to the end', `${a.aborted.kind}: ${a.aborted.message}`) }];
  },
});
