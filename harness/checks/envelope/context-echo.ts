// envelope.context-echo — the `context` object the harness sent comes back unchanged, on errors too.
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { hasOwn, isObject, jsonEqual, own, preview, type JsonObject } from '../../json.ts';
import { payloadOrVerdict, textItems, viewResult } from '../views.ts';

/** Where an error result may carry the echoed context (lenient: every place a conformant SDK puts it). */
function errorContextCandidates(result: JsonObject): Array<{ pointer: string; value: unknown }> {
  const out: Array<{ pointer: string; value: unknown }> = [];
  const add = (base: string, container: unknown): void => {
    if (!isObject(container)) return;
    if (hasOwn(container, 'context')) out.push({ pointer: `${base}/context`, value: own(container, 'context') });
    const err = own(container, 'adcp_error');
    if (isObject(err) && hasOwn(err, 'context')) out.push({ pointer: `${base}/adcp_error/context`, value: own(err, 'context') });
  };
  add('/result/structuredContent', own(result, 'structuredContent'));
  for (const t of textItems(result)) add(`/result/content/${t.index}/text`, t.json?.value);
  return out;
}

export default defineCheck({
  id: 'envelope.context-echo',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'the `context` object the harness sent comes back unchanged, on errors too',
  spec: {
    label: 'AdCP core/context.json ("echoed unchanged"); AdCP 3.1 core/protocol-envelope.json · context',
    url: 'https://adcontextprotocol.org/schemas/v3/core/context.json',
  },
  fix: 'copy the request\'s `context` object unchanged into the response root (`"context": <as sent>`); on errors beside `adcp_error` in structuredContent',
  judge(x) {
    const sent = isObject(x.request) ? own(x.request.arguments, 'context') : undefined;
    if (!isObject(sent)) return notApplicable('the request carried no context object');
    const v = viewResult(x);
    if (v.kind === 'none') return v.verdict;
    if (v.kind === 'success') {
      const p = payloadOrVerdict(x);
      if ('verdict' in p) return p.verdict;
      const back = own(p.data, 'context');
      if (jsonEqual(back, sent)) return pass();
      return fail(`${p.pointer}/context`, `the sent context ${preview(sent)}`, back === undefined ? 'absent' : preview(back));
    }
    // Errors: AdCP SDKs put the echo beside adcp_error in structuredContent; accept it inside the error too.
    const candidates = errorContextCandidates(v.result);
    if (candidates.some((c) => jsonEqual(c.value, sent))) return pass();
    const first = candidates[0];
    return fail(
      first?.pointer ?? '/result/structuredContent/context',
      `the sent context ${preview(sent)} (structuredContent.context or adcp_error.context)`,
      first ? preview(first.value) : 'absent',
    );
  },
});
