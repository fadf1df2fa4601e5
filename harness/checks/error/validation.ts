// error.validation — the deliberately invalid probe (arguments that break the tool's input schema) gets
// an AdCP error a client can read (isError + adcp_error, or a JSON-RPC error carrying data.adcp_error),
// not a bare transport error string, and is never accepted.
import { defineCheck, fail, notApplicable, pass, untested } from '../check.ts';
import { locateAdcpError } from '../../extract/error.ts';
import { isObject, own, preview } from '../../json.ts';
import { noAnswer, viewResult } from '../views.ts';

export default defineCheck({
  id: 'error.validation',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: 'a request that breaks the input schema yields an AdCP error, not a bare transport error string',
  spec: {
    label:
      'AdCP · Transport error mapping › MCP binding › Tool-level errors (the standard path for every AdCP error code, e.g. VALIDATION_ERROR / INVALID_REQUEST)',
    url: 'https://adcontextprotocol.org/docs/building/operating/transport-errors#tool-level-errors',
  },
  fix: 'validate arguments in the tool and answer `"isError": true` with `{"adcp_error":{"code":"VALIDATION_ERROR","message":"…","field":"…","recovery":"correctable"}}`, not a JSON-RPC -32602',
  judge(x) {
    if (x.intent !== 'invalid') return notApplicable('not the invalid-input probe');
    const outcome = x.outcome;
    if (outcome.kind === 'transport-error') return noAnswer();
    if (outcome.kind === 'jsonrpc-error') {
      // A JSON-RPC error that carries data.adcp_error is still an AdCP error a conformant client reads.
      if (isObject(own(own(outcome.error, 'data'), 'adcp_error'))) return pass();
      return fail(
        '/error',
        'isError:true with an adcp_error (code such as VALIDATION_ERROR)',
        `JSON-RPC error ${preview(own(outcome.error, 'code'))}: ${preview(own(outcome.error, 'message'))}`,
      );
    }
    const v = viewResult(x);
    if (v.kind === 'none') return v.verdict;
    if (v.kind === 'success')
      return fail('/result/isError', 'isError:true with an adcp_error', 'a success: the invalid request was accepted');
    // Any code passes: the rule names VALIDATION_ERROR / INVALID_REQUEST as examples, and the code's
    // shape is error.code's concern.
    const located = locateAdcpError(outcome);
    if (located && located.source !== 'payload_errors' && isObject(located.raw)) return pass();
    return untested('an isError result without adcp_error: see error.adcp-error');
  },
});
