// error.* — the AdCP error envelope (`adcp_error`) on MCP: where it travels, and what a client may accept.
// Field checks (code, size, recovery, retry-after, message-safety, no-internals) judge the raw
// adcp_error wherever the detection order finds it (isError result or JSON-RPC error.data); a payload
// `errors[0]` item is not an adcp_error and is left to error.adcp-error.
import type { Exchange } from '../capture/exchange.ts';
import { fail, pass, skip, type ExchangeCheck, type Verdict } from './check.ts';
import { locateAdcpError, RESERVED_JSONRPC_CODES } from '../extract/error.ts';
import { utf8Bytes } from '../extract/success.ts';
import { describeType, hasOwn, isObject, jsonBytes, jsonEqual, own, preview, type JsonObject } from './json.ts';
import { findLeak, stringsIn } from './leaks.ts';
import { errorResult, NO_ANSWER, textItems, viewResult } from './views.ts';
import { isAdcpTask } from './adcp-tasks.ts';

const TRANSPORT_ERRORS = 'AdCP · Transport error mapping';

interface LocatedRaw {
  error: JsonObject;
  /** Pointer of the adcp_error object inside the Exchange. */
  pointer: string;
}

/** The raw adcp_error of an error result or JSON-RPC error, or why the field checks do not apply. */
export function locatedAdcpError(x: Exchange): LocatedRaw | { skip: string } {
  const outcome = x.outcome;
  if (outcome.kind === 'transport-error') return { skip: NO_ANSWER };
  if (outcome.kind === 'result') {
    const r = errorResult(x);
    if ('skip' in r) return r;
  }
  const located = locateAdcpError(outcome);
  if (!located) {
    return { skip: outcome.kind === 'result' ? 'no adcp_error: see error.adcp-error' : 'a JSON-RPC error without error.data.adcp_error' };
  }
  if (located.source === 'payload_errors') return { skip: 'only a payload errors[] item, no adcp_error: see error.adcp-error' };
  if (!isObject(located.raw)) {
    return { skip: `adcp_error is ${describeType(located.raw)}: see ${outcome.kind === 'result' ? 'error.adcp-error' : 'error.jsonrpc-data'}` };
  }
  const pointer =
    outcome.kind === 'jsonrpc-error'
      ? located.pointer
      : located.source === 'text_fallback'
        ? `/result${located.pointer}/adcp_error`
        : `/result${located.pointer}`;
  return { error: located.raw, pointer };
}

/** Run `judge` on the located adcp_error, or skip with the reason. */
function onAdcpError(x: Exchange, judge: (e: LocatedRaw) => Verdict): Verdict {
  const located = locatedAdcpError(x);
  return 'skip' in located ? skip(located.skip) : judge(located);
}

export const adcpError: ExchangeCheck = {
  id: 'error.adcp-error',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'an `isError:true` result carries an `adcp_error` (structuredContent, else text JSON)',
  spec: `${TRANSPORT_ERRORS} · MCP binding (isError + structuredContent.adcp_error) and client detection order`,
  run(x) {
    const r = errorResult(x);
    if ('skip' in r) return skip(r.skip);
    const located = locateAdcpError(x.outcome);
    // Another tool on the same server may report errors the plain MCP way (isError + text): conformant.
    if (!located && !isAdcpTask(x.tool)) return skip(`'${String(x.tool)}' is not an AdCP task: a plain MCP tool error is conformant`);
    if (!located || located.source === 'payload_errors') {
      const sc = own(r.result, 'structuredContent');
      const found = located
        ? `only a payload errors[0] at ${located.pointer}`
        : `structuredContent ${sc === undefined ? 'absent' : preview(sc)}; no text item with {"adcp_error":…}`;
      return fail('/result/structuredContent/adcp_error', 'an adcp_error object (structuredContent.adcp_error, else JSON in a text item)', found);
    }
    if (!isObject(located.raw)) return fail(`/result${located.pointer}`, 'an adcp_error object', `${describeType(located.raw)} ${preview(located.raw)}`);
    return pass();
  },
};

export const textMirror: ExchangeCheck = {
  id: 'error.text-mirror',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: 'the error also travels as `{"adcp_error":…}` JSON in `content[0].text`',
  spec: `${TRANSPORT_ERRORS} · MCP binding (the same {"adcp_error":…} JSON as content[0].text, for clients without structuredContent)`,
  run(x) {
    const r = errorResult(x);
    if ('skip' in r) return skip(r.skip);
    const scError = own(own(r.result, 'structuredContent'), 'adcp_error');
    const first = textItems(r.result).find((t) => t.index === 0);
    const textError = isObject(first?.json?.value) ? own(first.json.value, 'adcp_error') : undefined;
    if (isObject(scError)) {
      if (textError !== undefined && jsonEqual(textError, scError)) return pass();
      return fail(
        '/result/content/0/text',
        'JSON {"adcp_error":…} equal to structuredContent.adcp_error',
        first ? preview(first.text) : 'no text item at content[0]',
      );
    }
    if (isObject(textError)) return pass(); // the text is the only carrier: it mirrors nothing but is there
    const located = locateAdcpError(x.outcome);
    if (located?.source === 'text_fallback') {
      return fail('/result/content/0/text', 'the {"adcp_error":…} JSON in content[0]', `it is at ${located.pointer}`);
    }
    return skip('no adcp_error object: see error.adcp-error');
  },
};

export const code: ExchangeCheck = {
  id: 'error.code',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`code` is a string of 1–64 characters',
  spec: `${TRANSPORT_ERRORS} · The adcp_error object (code: string, 1–64 chars; clients reject others); AdCP core/error.json`,
  run: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      const v = own(error, 'code');
      if (typeof v === 'string' && v.length >= 1 && v.length <= 64) return pass();
      const found = typeof v === 'string' ? `${v.length} chars ${preview(v)}` : v === undefined ? 'absent' : `${describeType(v)} ${preview(v)}`;
      return fail(`${pointer}/code`, 'a string of 1–64 characters', found);
    }),
};

export const size: ExchangeCheck = {
  id: 'error.size',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'the serialized `adcp_error` is ≤ 4096 bytes',
  spec: `${TRANSPORT_ERRORS} · The adcp_error object (serialized ≤ 4 KB; clients reject larger)`,
  run: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      const bytes = jsonBytes(error);
      if (bytes === null) return fail(pointer, 'serializable JSON ≤ 4096 bytes', 'could not be re-serialized');
      return bytes <= 4096 ? pass() : fail(pointer, '≤ 4096 bytes serialized (UTF-8)', `${bytes} bytes`);
    }),
};

const RECOVERIES = ['transient', 'correctable', 'terminal'];

export const recovery: ExchangeCheck = {
  id: 'error.recovery',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: '`recovery` is present and one of transient, correctable, terminal',
  spec: `${TRANSPORT_ERRORS} · The adcp_error object (recovery; an unknown value means terminal)`,
  run: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      const v = own(error, 'recovery');
      if (typeof v === 'string' && RECOVERIES.includes(v)) return pass();
      return fail(`${pointer}/recovery`, 'one of transient, correctable, terminal', v === undefined ? 'absent' : preview(v));
    }),
};

export const retryAfter: ExchangeCheck = {
  id: 'error.retry-after',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: '`retry_after`, when present, is an integer 1–3600',
  spec: `${TRANSPORT_ERRORS} · The adcp_error object (retry_after: seconds, 1–3600); AdCP core/error.json`,
  run: (x) =>
    onAdcpError(x, ({ error, pointer }) => {
      if (!hasOwn(error, 'retry_after')) return pass();
      const v = own(error, 'retry_after');
      if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 3600) return pass();
      return fail(`${pointer}/retry_after`, 'an integer from 1 to 3600', `${describeType(v)} ${preview(v)}`);
    }),
};

// C0 and C1 controls, DEL, and the bidi embedding / override / isolate / mark characters.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHAR = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function textSafety(error: JsonObject, pointer: string, key: string, maxBytes: number): Verdict | null {
  if (!hasOwn(error, key)) return null;
  const v = own(error, key);
  if (typeof v !== 'string') return fail(`${pointer}/${key}`, `a string of ≤ ${maxBytes} bytes`, `${describeType(v)} ${preview(v)}`);
  const bytes = utf8Bytes(v);
  if (bytes > maxBytes) return fail(`${pointer}/${key}`, `≤ ${maxBytes} bytes (UTF-8)`, `${bytes} bytes: ${preview(v)}`);
  const bad = UNSAFE_CHAR.exec(v);
  if (bad) {
    const cp = bad[0].codePointAt(0)!.toString(16).padStart(4, '0');
    return fail(`${pointer}/${key}`, 'no control or bidi characters', `U+${cp.toUpperCase()} at index ${bad.index}: ${preview(v)}`);
  }
  return null;
}

export const messageSafety: ExchangeCheck = {
  id: 'error.message-safety',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: '`message` ≤ 256 bytes, `suggestion` ≤ 512 bytes, no control / bidi characters',
  spec: `${TRANSPORT_ERRORS} · Security considerations (seller-controlled text: length limits, no control or bidi characters)`,
  run: (x) =>
    onAdcpError(x, ({ error, pointer }) => textSafety(error, pointer, 'message', 256) ?? textSafety(error, pointer, 'suggestion', 512) ?? pass()),
};

export const noInternals: ExchangeCheck = {
  id: 'error.no-internals',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: '`message`, `suggestion` and `details` carry no exception text, stack frames, file paths, SQL or upstream bodies',
  spec: `${TRANSPORT_ERRORS} · Security considerations (sellers must not leak internals; a crash is not a retryable error)`,
  run: (x) =>
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
};

export const jsonrpcData: ExchangeCheck = {
  id: 'error.jsonrpc-data',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'JSON-RPC errors −32029/−32028/−32027 carry `error.data.adcp_error`',
  spec: `${TRANSPORT_ERRORS} · MCP binding › JSON-RPC errors (reserved codes -32029 RATE_LIMITED, -32028 AUTH_MISSING, -32027 SERVICE_UNAVAILABLE)`,
  run(x) {
    if (x.outcome.kind !== 'jsonrpc-error') return skip(x.outcome.kind === 'transport-error' ? NO_ANSWER : 'not a JSON-RPC error');
    const err = x.outcome.error;
    const c = own(err, 'code');
    if (typeof c !== 'number' || !Object.prototype.hasOwnProperty.call(RESERVED_JSONRPC_CODES, c)) {
      return skip(`JSON-RPC code ${preview(c)} is not one AdCP reserves`);
    }
    const data = own(err, 'data');
    const adcp = own(data, 'adcp_error');
    if (isObject(adcp)) return pass();
    return fail('/error/data/adcp_error', `an adcp_error object (${RESERVED_JSONRPC_CODES[c]})`, data === undefined ? 'no error.data' : `${describeType(adcp)} ${preview(adcp)}`);
  },
};

export const validation: ExchangeCheck = {
  id: 'error.validation',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: 'a request that breaks the input schema yields an AdCP error, not a bare transport error string',
  spec: `${TRANSPORT_ERRORS} · MCP binding (tool errors as isError + adcp_error, e.g. VALIDATION_ERROR / INVALID_REQUEST)`,
  run(x) {
    if (x.intent !== 'invalid') return skip('not the invalid-input probe');
    const outcome = x.outcome;
    if (outcome.kind === 'transport-error') return skip(NO_ANSWER);
    if (outcome.kind === 'jsonrpc-error') {
      // A JSON-RPC error that carries data.adcp_error is still an AdCP error a conformant client reads.
      if (isObject(own(own(outcome.error, 'data'), 'adcp_error'))) return pass();
      return fail('/error', 'isError:true with an adcp_error (code such as VALIDATION_ERROR)', `JSON-RPC error ${preview(own(outcome.error, 'code'))}: ${preview(own(outcome.error, 'message'))}`);
    }
    const v = viewResult(x);
    if (v.kind === 'none') return skip(v.reason);
    if (v.kind === 'success') return fail('/result/isError', 'isError:true with an adcp_error', 'a success: the invalid request was accepted');
    // Any code passes: the rule names VALIDATION_ERROR / INVALID_REQUEST as examples, and the code's
    // shape is error.code's concern.
    const located = locateAdcpError(outcome);
    if (located && located.source !== 'payload_errors' && isObject(located.raw)) return pass();
    return skip('an isError result without adcp_error: see error.adcp-error');
  },
};

export const errorChecks: readonly ExchangeCheck[] = [
  adcpError,
  textMirror,
  code,
  size,
  recovery,
  retryAfter,
  jsonrpcData,
  validation,
  messageSafety,
  noInternals,
];
