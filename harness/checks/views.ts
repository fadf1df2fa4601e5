// Views of one Exchange that several checks share: is it a success or an error result, its text items
// (measured and parsed once), the AdCP payload a conformant client extracts, and its structured-content layer.
// Where a view does not apply it says why as a Verdict: `not-applicable` (the rule does not concern
// this call) or `untested` (it does, but a precondition failed; the reason names the check that owns
// it), so one seller defect trips one id and nothing unverified reads as a pass.
import type { Exchange } from '../record/exchange.ts';
import { notApplicable, untested, type CheckContext, type Verdict } from './check.ts';
import { isAdcpErrorOnly, locateSuccess, TEXT_LIMIT, utf8Bytes } from '../extract/success.ts';
import { detectMetaIdTool, structuredContentTarget, type AuditRecord, type LayerTarget } from '../extract/layer.ts';
import { isAdcpTask } from '../adcp-tasks.ts';
import { hasOwn, isObject, own, type JsonObject } from '../json.ts';

export const NO_ANSWER = 'no answer: see transport.call';
/** A call that got no answer: untested, blocked by transport.call's failure on that call. */
export const noAnswer = (): Verdict => untested(NO_ANSWER);
/** Why success rules do not apply to an error result (probe-once.ts tells these apart by it). */
export const SUCCESS_RULES_NOT_APPLICABLE = 'an error result (isError:true): success rules do not apply';
/** Why result rules do not apply to a JSON-RPC error. */
export const NOT_A_TOOL_RESULT = 'a JSON-RPC error, not a tool result';

export type ResultView =
  { kind: 'success'; result: JsonObject } | { kind: 'error'; result: JsonObject } | { kind: 'none'; reason: string; verdict: Verdict };

/** Classify the outcome of a call: a success result, an error result, or not a judgeable result. */
export function viewResult(x: Exchange): ResultView {
  const outcome = x.outcome;
  const none = (reason: string, verdict: Verdict) => ({ kind: 'none' as const, reason, verdict });
  if (outcome.kind === 'transport-error') return none(NO_ANSWER, noAnswer());
  if (outcome.kind === 'jsonrpc-error') return none(NOT_A_TOOL_RESULT, notApplicable(NOT_A_TOOL_RESULT));
  const result = outcome.result;
  if (!isObject(result)) return blockedNone('the result is not a JSON object: see envelope.content-blocks');
  const isError = own(result, 'isError');
  if (isError === true) return { kind: 'error', result };
  if (isError === undefined || isError === false) return { kind: 'success', result };
  return blockedNone('isError is not a boolean: see envelope.is-error-type');
}

/** Not a judgeable result because the check its reason names failed: untested, blocked by that check. */
function blockedNone(reason: string): ResultView {
  return { kind: 'none', reason, verdict: untested(reason) };
}

/** The success result, or the reason success rules do not apply. */
export function successResult(x: Exchange): { result: JsonObject } | { verdict: Verdict } {
  const v = viewResult(x);
  if (v.kind === 'success') return { result: v.result };
  if (v.kind === 'error') return { verdict: notApplicable(SUCCESS_RULES_NOT_APPLICABLE) };
  return { verdict: v.verdict };
}

/** The error result, or the reason error-result rules do not apply. */
export function errorResult(x: Exchange): { result: JsonObject } | { verdict: Verdict } {
  const v = viewResult(x);
  if (v.kind === 'error') return { result: v.result };
  if (v.kind === 'success') return { verdict: notApplicable('not an error result (isError is not true)') };
  return { verdict: v.verdict };
}

export interface TextItem {
  index: number;
  text: string;
  utf8: number;
  utf16: number;
  /** Over the 1 MiB limit in UTF-8 bytes: a conformant client drops it unparsed. */
  oversize: boolean;
  /** The parsed JSON when the text is within the limit and parses. */
  json?: { value: unknown };
}

const textCache = new WeakMap<object, TextItem[]>();

/** Every `type:"text"` item of `content[]` with a string `text`, measured and parsed once per result. */
export function textItems(result: JsonObject): TextItem[] {
  const cached = textCache.get(result);
  if (cached) return cached;
  const items: TextItem[] = [];
  const content = own(result, 'content');
  if (Array.isArray(content)) {
    for (let index = 0; index < content.length; index++) {
      const item: unknown = content[index];
      if (!isObject(item) || own(item, 'type') !== 'text') continue;
      const text = own(item, 'text');
      if (typeof text !== 'string') continue;
      const utf8 = utf8Bytes(text);
      const entry: TextItem = { index, text, utf8, utf16: text.length, oversize: utf8 > TEXT_LIMIT };
      if (!entry.oversize && text !== '') {
        try {
          entry.json = { value: JSON.parse(text) as unknown };
        } catch {
          // plain text
        }
      }
      items.push(entry);
    }
  }
  textCache.set(result, items);
  return items;
}

/** The advertised outputSchema of the called tool, if any. */
export function outputSchemaOf(x: Exchange): unknown {
  return isObject(x.advertised) ? own(x.advertised, 'outputSchema') : undefined;
}

/** The structured-content layer's audit record for this call. `metaIdTool`: config override, else detected from the schema. */
export function auditRecord(x: Exchange, ctx: CheckContext): AuditRecord {
  const overrides = ctx.agent?.metaIdTools;
  const override = hasOwn(overrides, x.tool) ? own(overrides, x.tool) : undefined;
  return {
    tool: x.tool,
    protocol: x.protocolVersion,
    metaIdTool: typeof override === 'boolean' ? override : detectMetaIdTool(outputSchemaOf(x)),
  };
}

export function layerTarget(x: Exchange, ctx: CheckContext, result: JsonObject): LayerTarget {
  return structuredContentTarget(auditRecord(x, ctx), result);
}

export interface PayloadView {
  data: JsonObject;
  /** JSON pointer of `data` inside the Exchange (`/result/structuredContent`, `/result/content/0/text`). */
  pointer: string;
}

/**
 * The AdCP payload of a success, exactly as a conformant client extracts it (the AdCP MCP response-extraction page). A legacy
 * `{result:{…}}` wrapper is NOT unwrapped here: an AdCP client reads the wrapper as the payload, so the
 * AdCP rules (status, context echo, response schema) judge what the client sees; only the outputSchema
 * layer (schema.output-conformance) validates the inner object (and schema.legacy-wrapper warns).
 */
export function adcpPayload(result: JsonObject): PayloadView | null {
  const located = locateSuccess(result);
  return located ? { data: located.data, pointer: `/result${located.pointer}` } : null;
}

/** The verdict for a success without a payload: untested, naming (and so blocked by) the check that owns the cause. */
export function noPayload(result: JsonObject): Verdict {
  if (isAdcpErrorOnly(own(result, 'structuredContent')) || textItems(result).some((t) => isAdcpErrorOnly(t.json?.value))) {
    return untested('adcp_error-only success: see envelope.adcp-error-only-success');
  }
  return untested('no AdCP payload extracted: see envelope.extractable');
}

/** The payload of an AdCP-task success, or the verdict that stands in for it (not-applicable / untested). */
export function payloadOrVerdict(x: Exchange): PayloadView | { verdict: Verdict } {
  const s = successResult(x);
  if ('verdict' in s) return s;
  if (!isAdcpTask(x.tool)) return { verdict: notApplicable(`'${String(x.tool)}' is not an AdCP task`) };
  return adcpPayload(s.result) ?? { verdict: noPayload(s.result) };
}

export interface AdcpVersionView {
  major: number;
  minor: number;
  label: string;
  source: string;
}

/** `3`, `3.1`, `3.1.19`, `3.1-beta` → major/minor; anything else → null. */
export function parseVersion(v: unknown): { major: number; minor: number } | null {
  if (typeof v !== 'string') return null;
  const m = /^v?(\d{1,4})(?:\.(\d{1,4}))?/.exec(v.trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: m[2] === undefined ? 0 : Number(m[2]) };
}

/** The AdCP version the seller serves: the payload's `adcp_version`, else the schema service's, else config, else 3.0. */
export function adcpVersionOf(payload: JsonObject | null, ctx: CheckContext): AdcpVersionView {
  const candidates: Array<[unknown, string]> = [
    [payload ? own(payload, 'adcp_version') : undefined, 'adcp_version in the payload'],
    [ctx.schemas?.adcpVersion.version, `schema service (${ctx.schemas?.adcpVersion.reason ?? ''})`],
    [ctx.agent?.adcpVersion, 'config'],
  ];
  for (const [value, source] of candidates) {
    const parsed = parseVersion(value);
    if (parsed) return { ...parsed, label: String(value), source };
  }
  return { major: 3, minor: 0, label: '3.0', source: 'default' };
}
