// envelope.size — structuredContent and every text item are ≤ 1 MiB (UTF-8): conformant clients drop
// larger ones unparsed. Also judges the calls whose answer passed the harness's byte cap.
import { defineCheck, fail, pass } from '../check.ts';
import { TEXT_LIMIT } from '../../extract/success.ts';
import { hasOwn, jsonBytes, own } from '../../json.ts';
import { noAnswer, successResult, textItems } from '../views.ts';

export default defineCheck({
  id: 'envelope.size',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  judgesUnanswered: true,
  title: '`structuredContent` and every text item are ≤ 1 MiB (UTF-8)',
  spec: {
    label: 'AdCP · MCP response extraction › Security considerations › Size limits (1 MB; applied before JSON.parse)',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-response-extraction#size-limits',
  },
  fix: `page or trim large results so \`structuredContent\` and each text item stay ≤ ${TEXT_LIMIT} bytes of UTF-8`,
  judge(x) {
    if (x.outcome.kind === 'transport-error') {
      const f = x.outcome.failure;
      if (f.kind !== 'oversize') return noAnswer();
      return fail(
        '/outcome/failure',
        'an answer within the byte cap',
        `the body passed the cap${typeof f.bytesSeen === 'number' ? ` after ${f.bytesSeen} bytes` : ''}: ${f.message}`,
      );
    }
    const s = successResult(x);
    if ('verdict' in s) return s.verdict;
    if (hasOwn(s.result, 'structuredContent')) {
      const bytes = jsonBytes(own(s.result, 'structuredContent'));
      if (bytes === null)
        return fail(
          '/result/structuredContent',
          `serializable JSON ≤ ${TEXT_LIMIT} bytes`,
          'could not be re-serialized (nesting too deep)',
        );
      if (bytes > TEXT_LIMIT) return fail('/result/structuredContent', `≤ ${TEXT_LIMIT} bytes serialized (UTF-8)`, `${bytes} bytes`);
    }
    for (const t of textItems(s.result)) {
      if (t.oversize) {
        const note = t.utf16 <= TEXT_LIMIT ? '; the spec sample code counts UTF-16 units and would accept it' : '';
        return fail(
          `/result/content/${t.index}/text`,
          `≤ ${TEXT_LIMIT} bytes (UTF-8)`,
          `${t.utf8} bytes UTF-8, ${t.utf16} UTF-16 units${note}`,
        );
      }
    }
    return pass();
  },
});
