// envelope.status — `status` is present and a task status: required on every task response from AdCP
// 3.1 (MUST), recommended for 3.0 (SHOULD). The engine reads the level off the AdCP version.
import { defineCheck, fail, pass } from '../check.ts';
import { describeType, own, preview } from '../../json.ts';
import { adcpVersionOf, payloadOrVerdict } from '../views.ts';
import { PROTOCOL_ENVELOPE_URL } from './_protocol-envelope.ts';

/** AdCP enums/task-status.json. */
const TASK_STATUSES = ['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown'];

export default defineCheck({
  id: 'envelope.status',
  scope: 'exchange',
  severity: { byAdcpVersion: [{ from: '3.1', level: 'MUST' }], below: 'SHOULD' },
  live: false,
  title: '`status` is present and a task status',
  spec: {
    label: 'AdCP 3.1 core/protocol-envelope.json · status (REQUIRED on every task response; enums/task-status.json)',
    url: PROTOCOL_ENVELOPE_URL,
  },
  fix: 'add the task status at the payload root, e.g. `"status":"completed"` (or submitted, working, input-required, failed, …)',
  judge(x, ctx) {
    const p = payloadOrVerdict(x);
    if ('verdict' in p) return p.verdict;
    const v = own(p.data, 'status');
    if (typeof v === 'string' && TASK_STATUSES.includes(v)) return pass();
    const version = adcpVersionOf(p.data, ctx);
    return fail(
      `${p.pointer}/status`,
      `one of ${TASK_STATUSES.join(', ')} (AdCP ${version.label}, from ${version.source})`,
      v === undefined ? 'absent' : `${describeType(v)} ${preview(v)}`,
    );
  },
});
