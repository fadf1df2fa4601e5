// error.no-internals — the harness's own rule: error text carries no exception text, stack frames, file
// paths, SQL or upstream bodies. AdCP forbids sellers to include these; the patterns that recognise them
// (and the SHOULD level, since a pattern can misread) are this harness's.
import { defineCheck, fail, pass } from '../check.ts';
import { hasOwn, own, preview } from '../../json.ts';
import { onAdcpError } from './_adcp-error.ts';
import { findLeak, stringsIn } from './_leaks.ts';

export default defineCheck({
  id: 'error.no-internals',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  harnessAddition: true,
  title: '`message`, `suggestion` and `details` carry no exception text, stack frames, file paths, SQL or upstream bodies',
  spec: {
    label: "adcp-conformance's own rule (after AdCP · Transport error mapping › Security considerations › Seller requirements)",
    url: 'docs/checks.md#errorno-internals',
  },
  fix: 'catch exceptions and answer a generic error such as `{"adcp_error":{"code":"SERVICE_UNAVAILABLE","message":"An internal error occurred","recovery":"transient"}}`; log the details server-side',
  judge: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      for (const key of ['message', 'suggestion', 'details']) {
        if (!hasOwn(error, key)) continue;
        for (const s of stringsIn(own(error, key), `${pointer}/${key}`)) {
          const leak = findLeak(s.text);
          if (leak) return fail(s.pointer, 'no server internals in error text', `${leak.kind}: ${preview(leak.snippet)}`);
        }
      }
      return pass();
    }),
});
