// Shared pieces of fault behaviours. Each fault is narrow, so it aims at one tool:
// - success-shape faults change only `get_products` (the probe that sends a brief and a context);
// - error faults change every AdCP error the seller returns (the harness provokes one: get_products with
//   `buying_mode: 42`);
// - call-level faults hit `get_signals`, a tool no other check depends on.
import { isPlainObject, type JsonObject } from '../reference/json.ts';
import { defName } from '../reference/output-schemas.ts';

export const SUCCESS_TARGET = 'get_products';
export const CALL_TARGET = 'get_signals';
export const MISSING_REQUIRED_TARGET = 'list_creative_formats';
export const BARE_ERROR_TARGET = 'get_media_buy_delivery';

export const ONE_MIB = 1_048_576;

/** Pads `payload.ext` so the serialized payload is `target` UTF-8 bytes (padding is plain ASCII). */
export function padTo(payload: JsonObject, target: number): void {
  const ext: JsonObject = isPlainObject(payload['ext']) ? payload['ext'] : {};
  ext['reference_seller_padding'] = '';
  payload['ext'] = ext;
  const base = Buffer.byteLength(JSON.stringify(payload), 'utf8');
  ext['reference_seller_padding'] = 'x'.repeat(Math.max(0, target - base));
}

/** A payload edit applied to the success-shape target only. */
export const onTarget =
  (edit: (payload: JsonObject) => { text?: 'summary' } | void) =>
  (tool: string, payload: JsonObject): { text?: 'summary' } | void =>
    tool === SUCCESS_TARGET ? edit(payload) : undefined;

export const textItem = (text: string): { type: 'text'; text: string } => ({ type: 'text', text });

/** An `adcp_error`-only object, as a seller that forgets `isError` would answer. */
export const adcpErrorOnly = (): JsonObject => ({
  adcp_error: { code: 'PRODUCTS_UNAVAILABLE', message: 'No products right now', recovery: 'transient' },
});

export function findTool(tools: JsonObject[], name: string): JsonObject | undefined {
  return tools.find((t) => t['name'] === name);
}

/** The object schema that describes the payload: the `$defs` entry of a meta-id tool, else the root. */
export function payloadSchemaOf(tool: JsonObject): JsonObject | undefined {
  const schema = tool['outputSchema'];
  if (!isPlainObject(schema)) return undefined;
  const defs = schema['$defs'];
  const entry = isPlainObject(defs) ? defs[defName(String(tool['name']))] : undefined;
  return isPlainObject(entry) ? entry : schema;
}
