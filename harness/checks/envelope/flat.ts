// envelope.flat — the task body sits at the payload root, not nested under a lone payload/data/response key.
import { defineCheck, fail, pass } from '../check.ts';
import { isObject, own, preview, token } from '../../json.ts';
import { payloadOrVerdict } from '../views.ts';
import { ENVELOPE_KEYS, PROTOCOL_ENVELOPE_URL } from './_protocol-envelope.ts';

const NESTING_KEYS = new Set(['payload', 'data', 'response']);

export default defineCheck({
  id: 'envelope.flat',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'the payload is not nested under a lone `payload` / `data` / `response` key',
  spec: {
    label:
      'AdCP 3.1 core/protocol-envelope.json · Transport serialization (MCP: body fields are siblings of envelope fields at the root); AdCP · MCP response extraction › structuredContent',
    url: PROTOCOL_ENVELOPE_URL,
  },
  fix: 'put the task fields at the payload root beside the envelope fields: `{"status":"completed","products":[…]}`, not `{"data":{"products":[…]}}`',
  judge(x) {
    const p = payloadOrVerdict(x);
    if ('verdict' in p) return p.verdict;
    // Envelope siblings (status, context, …) do not count: `{status, data:{…}}` is nested all the same.
    const body = Object.keys(p.data).filter((k) => !ENVELOPE_KEYS.has(k));
    const lone = body.length === 1 ? body[0]! : undefined;
    if (lone !== undefined && NESTING_KEYS.has(lone) && isObject(own(p.data, lone))) {
      return fail(
        `${p.pointer}/${token(lone)}`,
        'task fields at the root of the payload',
        `the body nested under a lone "${lone}" key: ${preview(own(p.data, lone))}`,
      );
    }
    return pass();
  },
});
