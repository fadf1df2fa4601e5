// The raw `adcp_error` the field checks judge (code, size, recovery, retry-after, message-safety,
// no-internals): wherever the client detection order finds it — an isError result (structuredContent,
// else a text item) or a JSON-RPC error's `error.data`. A payload `errors[0]` item is not an adcp_error
// and is left to error.adcp-error. When there is nothing to judge, the verdict says why: the rules do
// not concern this call (not-applicable), or another check owns the defect (untested, "see <id>").
import type { Exchange } from '../../record/exchange.ts';
import { locateAdcpError, RESERVED_JSONRPC_CODES } from '../../extract/error.ts';
import { notApplicable, untested, type Verdict } from '../check.ts';
import { describeType, isObject, own, preview, type JsonObject } from '../../json.ts';
import { isAdcpTask } from '../../adcp-tasks.ts';
import { errorResult, noAnswer } from '../views.ts';

export interface LocatedRaw {
  error: JsonObject;
  /** Pointer of the adcp_error object inside the Exchange. */
  pointer: string;
}

/** The AdCP error a reserved JSON-RPC code stands for (-32029 → RATE_LIMITED), or undefined. */
export function reservedCode(jsonrpcError: unknown): string | undefined {
  const code = own(jsonrpcError, 'code');
  if (typeof code !== 'number' || !Object.prototype.hasOwnProperty.call(RESERVED_JSONRPC_CODES, code)) return undefined;
  return RESERVED_JSONRPC_CODES[code];
}

/** An isError result without an adcp_error: error.adcp-error's failure for an AdCP task; conformant MCP for any other tool. */
export function withoutAdcpError(tool: unknown): Verdict {
  return isAdcpTask(tool)
    ? untested('no adcp_error: see error.adcp-error')
    : notApplicable(`'${String(tool)}' is not an AdCP task: a plain MCP tool error is conformant`);
}

/** A JSON-RPC error whose `error.data.adcp_error` is missing or not an object (`what` says which). */
function jsonrpcWithout(jsonrpcError: unknown, what: string): Verdict {
  if (reservedCode(jsonrpcError)) return untested(`${what}: see error.jsonrpc-data`);
  return notApplicable(`${what}, and JSON-RPC code ${preview(own(jsonrpcError, 'code'))} is not one AdCP reserves`);
}

/** The raw adcp_error of an error result or JSON-RPC error, or the verdict that stands in for it. */
export function locatedAdcpError(x: Exchange): LocatedRaw | { verdict: Verdict } {
  const outcome = x.outcome;
  if (outcome.kind === 'transport-error') return { verdict: noAnswer() };
  if (outcome.kind === 'result') {
    const r = errorResult(x);
    if ('verdict' in r) return r;
  }
  const located = locateAdcpError(outcome);
  if (!located) {
    const verdict =
      outcome.kind === 'result'
        ? withoutAdcpError(x.tool)
        : jsonrpcWithout(outcome.error, 'a JSON-RPC error without error.data.adcp_error');
    return { verdict };
  }
  if (located.source === 'payload_errors')
    return { verdict: untested('only a payload errors[] item, no adcp_error: see error.adcp-error') };
  if (!isObject(located.raw)) {
    const what = `adcp_error is ${describeType(located.raw)}`;
    return {
      verdict: outcome.kind === 'result' ? untested(`${what}: see error.adcp-error`) : jsonrpcWithout(outcome.error, what),
    };
  }
  const pointer =
    outcome.kind === 'jsonrpc-error'
      ? located.pointer
      : located.source === 'text_fallback'
        ? `/result${located.pointer}/adcp_error`
        : `/result${located.pointer}`;
  return { error: located.raw, pointer };
}

/** Run `judge` on the located adcp_error, or return the verdict that stands in for it. */
export function onAdcpError(x: Exchange, judge: (e: LocatedRaw) => Verdict): Verdict {
  const located = locatedAdcpError(x);
  return 'verdict' in located ? located.verdict : judge(located);
}
