// error.vendor-code — an error code outside the standard vocabulary of the release served is a seller-
// specific code, and those have the form X_{VENDOR}_{CODE}. The standard vocabulary is the `enum` of
// `enums/error-code.json` in the schema tree the seller is judged at (the schema service); without one,
// the harness's own code table (the 3.0 enumMetadata of @adcp/sdk plus its supplement of newer codes)
// stands in, and a failure says so. A code that is not a 1–64 character string is error.code's finding.
import { recoveryTable } from '../../extract/recovery-table.ts';
import { defineCheck, fail, pass, untested, MUST_FROM_ADCP_3_1 } from '../check.ts';
import { own, preview } from '../../json.ts';
import { onAdcpError } from './_adcp-error.ts';
import { vendorCodeProblem } from './_codes.ts';

/**
 * Codes the normative text of AdCP 3.0 and 3.1 names as the answer to a situation although the release's
 * enums/error-code.json lacks them (the enum gains them in 3.2): a seller that follows the text is not
 * judged as using a vendor code. ACCOUNT_REQUIRED: accounts-and-agents.mdx › error table ("Multiple
 * accounts; seller can't determine which"), 3.0.26 and 3.1.19.
 */
export const CODES_NAMED_IN_TEXT: ReadonlySet<string> = new Set(['ACCOUNT_REQUIRED']);

export default defineCheck({
  id: 'error.vendor-code',
  scope: 'exchange',
  severity: MUST_FROM_ADCP_3_1,
  live: false,
  title: 'an error code outside the standard vocabulary of the release served has the form `X_{VENDOR}_{CODE}`',
  spec: {
    label:
      'AdCP 3.1 · Transport error mapping › Seller-Specific Error Codes ("Seller-specific codes MUST use the format X_{VENDOR}_{CODE}"; {VENDOR} /^[A-Z][A-Z0-9]{1,19}$/, {CODE} /^[A-Z][A-Z0-9_]{1,39}$/; registration in the vendor registry is not checked; ACCOUNT_REQUIRED, which accounts-and-agents.mdx names but the 3.0/3.1 enum lacks, counts as standard: the text wins)',
    url: 'https://adcontextprotocol.org/docs/building/operating/transport-errors#seller-specific-error-codes',
  },
  fix: 'use a standard code from enums/error-code.json, or prefix your own: `X_{VENDOR}_{CODE}`, e.g. `X_STREAMHAUS_FLOOR_NOT_MET`',
  judge: (x, ctx) =>
    onAdcpError(x, ({ error, pointer }) => {
      const code = own(error, 'code');
      if (typeof code !== 'string' || code.length < 1 || code.length > 64)
        return untested('the code is not a 1–64 character string: see error.code');
      const served = ctx.schemas?.errorCodes?.();
      const vocabulary =
        served && 'codes' in served
          ? { codes: served.codes, what: `the standard vocabulary of AdCP ${served.version} (enums/error-code.json)` }
          : {
              codes: new Set(recoveryTable().keys()),
              what: `the harness's own table of standard codes (${served ? served.skip : 'no schema tree for the release served'})`,
            };
      if (vocabulary.codes.has(code) || CODES_NAMED_IN_TEXT.has(code)) return pass();
      const problem = vendorCodeProblem(code);
      if (!problem) return pass();
      return fail(`${pointer}/code`, `a code of ${vocabulary.what}, or X_{VENDOR}_{CODE}`, `${preview(code)}: ${problem}`);
    }),
});
