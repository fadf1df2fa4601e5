// envelope.legacy-status-fields — no `task_status` / `response_status` (AdCP 3.1 forbids them; `status` replaces both).
import { defineCheck, fail, pass } from '../check.ts';
import { hasOwn, own, preview } from '../../json.ts';
import { payloadOrVerdict } from '../views.ts';
import { PROTOCOL_ENVELOPE_URL } from './_protocol-envelope.ts';

export default defineCheck({
  id: 'envelope.legacy-status-fields',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'no `task_status` / `response_status` fields',
  spec: {
    label:
      'AdCP 3.1 core/protocol-envelope.json · status ("MUST NOT emit the legacy task_status or response_status fields"; schema `not` clause)',
    url: PROTOCOL_ENVELOPE_URL,
  },
  fix: 'drop `task_status` / `response_status` and send `status` instead, e.g. `"status":"completed"`',
  judge(x) {
    const p = payloadOrVerdict(x);
    if ('verdict' in p) return p.verdict;
    for (const key of ['task_status', 'response_status']) {
      if (hasOwn(p.data, key))
        return fail(`${p.pointer}/${key}`, 'no legacy status field (use `status`)', `${key}: ${preview(own(p.data, key))}`);
    }
    return pass();
  },
});
