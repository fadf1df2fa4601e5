// error.jsonrpc-data — the JSON-RPC errors AdCP reserves for rejections before tool dispatch (−32029
// RATE_LIMITED, −32028 AUTH_MISSING, −32027 SERVICE_UNAVAILABLE) carry `error.data.adcp_error`.
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { describeType, isObject, own, preview } from '../../json.ts';
import { noAnswer } from '../views.ts';
import { reservedCode } from './_adcp-error.ts';

export default defineCheck({
  id: 'error.jsonrpc-data',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'JSON-RPC errors −32029/−32028/−32027 carry `error.data.adcp_error`',
  spec: {
    label:
      'AdCP · Transport error mapping › MCP binding › Transport-level errors and reserved JSON-RPC codes (-32029 RATE_LIMITED, -32028 AUTH_MISSING, -32027 SERVICE_UNAVAILABLE)',
    url: 'https://adcontextprotocol.org/docs/building/operating/transport-errors#reserved-json-rpc-codes',
  },
  fix: 'put the AdCP error in `error.data`: `{"code":-32029,"message":"Rate limit exceeded","data":{"adcp_error":{"code":"RATE_LIMITED","retry_after":5,"recovery":"transient"}}}`',
  judge(x) {
    if (x.outcome.kind === 'transport-error') return noAnswer();
    if (x.outcome.kind !== 'jsonrpc-error') return notApplicable('not a JSON-RPC error');
    const err = x.outcome.error;
    const adcpCode = reservedCode(err);
    if (!adcpCode) return notApplicable(`JSON-RPC code ${preview(own(err, 'code'))} is not one AdCP reserves`);
    const data = own(err, 'data');
    const adcp = own(data, 'adcp_error');
    if (isObject(adcp)) return pass();
    return fail(
      '/error/data/adcp_error',
      `an adcp_error object (${adcpCode})`,
      data === undefined ? 'no error.data' : `${describeType(adcp)} ${preview(adcp)}`,
    );
  },
});
