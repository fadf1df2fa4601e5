// error.field-pointer — an error that carries `issues` carries `field` = issues[0].pointer translated from
// RFC 6901 to JSONPath-lite (`/packages/0/targeting` → `packages[0].targeting`), so consumers that read
// only `field` get the same answer from every seller. The text says MUST *set* it when `issues` is
// present: an absent `field` fails too. Renderings the text leaves open (keys that are not identifiers,
// numeric keys of objects) accept every reasonable form (see _codes.ts jsonPathLiteForms).
import type { Exchange } from '../../record/exchange.ts';
import { defineCheck, fail, notApplicable, pass, MUST_FROM_ADCP_3_1 } from '../check.ts';
import { isObject, own, preview } from '../../json.ts';
import { onAdcpError } from './_adcp-error.ts';
import { jsonPathLiteForms, pointerSegments } from './_codes.ts';

const MAX_POINTER = 1024;
const SHOWN_FORMS = 3;

/** For segment i: whether the request value it indexes is an array (undefined when the request has no such path). */
function arrayAtIn(x: Exchange, segments: readonly string[]): (i: number) => boolean | undefined {
  const kinds: Array<boolean | undefined> = [];
  let node: unknown = x.request?.arguments;
  for (const seg of segments) {
    if (Array.isArray(node)) {
      kinds.push(true);
      node = /^(?:0|[1-9][0-9]*)$/.test(seg) && Number(seg) < node.length ? (node[Number(seg)] as unknown) : undefined;
    } else if (isObject(node)) {
      kinds.push(false);
      node = own(node, seg);
    } else {
      kinds.push(undefined);
      node = undefined;
    }
  }
  return (i) => kinds[i];
}

export default defineCheck({
  id: 'error.field-pointer',
  scope: 'exchange',
  severity: MUST_FROM_ADCP_3_1,
  live: false,
  title: 'an error with `issues` sets `field` to `issues[0].pointer` translated from RFC 6901 to JSONPath-lite',
  spec: {
    label:
      'AdCP 3.1 · Error handling › Error response format ("When issues is present, sellers MUST set this to issues[0].pointer translated from RFC 6901 to JSONPath-lite (e.g., /packages/0/targeting → packages[0].targeting)"); core/error.json',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L3/error-handling#error-response-format',
  },
  fix: 'set `field` from the first issue: `{"field":"packages[0].targeting","issues":[{"pointer":"/packages/0/targeting",…}]}` (decode `~1` → `/`, `~0` → `~`)',
  judge: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      const issues = own(error, 'issues');
      if (issues === undefined) return notApplicable('the error carries no issues');
      if (!Array.isArray(issues) || issues.length === 0)
        return notApplicable(`issues is ${preview(issues)}, not a non-empty array: no issues[0].pointer to translate`);
      const first: unknown = issues[0];
      const ptr = own(first, 'pointer');
      if (typeof ptr !== 'string' || ptr.length > MAX_POINTER)
        return fail(`${pointer}/issues/0/pointer`, 'an RFC 6901 JSON pointer (the field is translated from it)', preview(ptr));
      const segments = pointerSegments(ptr);
      if (!segments) return fail(`${pointer}/issues/0/pointer`, 'an RFC 6901 JSON pointer (the field is translated from it)', preview(ptr));
      const forms = jsonPathLiteForms(segments, arrayAtIn(x, segments));
      const field = own(error, 'field');
      const expected = `field ${forms
        .slice(0, SHOWN_FORMS)
        .map((f) => JSON.stringify(f.slice(0, 200)))
        .join(' or ')} (issues[0].pointer ${JSON.stringify(ptr.slice(0, 200))} in JSONPath-lite)`;
      // The root pointer translates to the empty path: a `field` of "" names nothing, so leaving it out is read the same.
      if (field === undefined) return segments.length === 0 ? pass() : fail(`${pointer}/field`, expected, 'absent');
      if (typeof field === 'string' && forms.includes(field)) return pass();
      return fail(`${pointer}/field`, expected, preview(field));
    }),
});
