// The structured-content layer gate (docs/architecture.md › The path of one call, step 4; MCP output
// schemas: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema). MCP TypeScript
// SDK 2.4.0 unwraps `structuredContent` for tools whose output was declared with zod `.meta({id})` under
// protocol 2025-11-25; older or un-restarted servers still send `{result:{…}}`. For each call: validate the audit record, then pick
// which JSON the tool's outputSchema must validate. legacy_wrapper and validate_root stay separate
// branches — reports count each.
//
// The audit record is validated with JSON Schema 2020-12 semantics (Ajv): a null-valued property is
// checked like any other, never skipped (`tool: null` is not a string, so the record fails).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { isObject, own } from '../json.ts';

export type LayerTarget = 'schema' | 'missing' | 'legacy_wrapper' | 'validate_root';
export const LAYER_TARGETS: readonly LayerTarget[] = ['schema', 'missing', 'legacy_wrapper', 'validate_root'];

/** The audit record's schema: the facts a call's layer is decided from. */
export const AUDIT_RECORD_SCHEMA: object = Object.freeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['tool', 'protocol', 'metaIdTool'],
  properties: {
    tool: { type: 'string', minLength: 1 },
    protocol: { enum: ['2025-11-25', '2026-07-28'] },
    metaIdTool: { type: 'boolean' },
  },
});

/** The protocol revision under which SDK 2.4.0 unwraps meta-id tools (and legacy servers still wrap). */
export const UNWRAP_PROTOCOL = '2025-11-25';

export interface AuditRecord {
  tool: unknown;
  protocol: unknown;
  metaIdTool: unknown;
}

let validateRecord: ValidateFunction | undefined;

/** True when the record passes the audit schema (compiled once, lazily). */
export function auditRecordValid(record: unknown): boolean {
  // validateSchema: false — the schema is our own constant (a test validates it against the 2020-12
  // meta-schema); checking it again at run time would compile that meta-schema first, ~0.2 s per thread.
  validateRecord ??= new Ajv2020({ allErrors: true, validateSchema: false }).compile(AUDIT_RECORD_SCHEMA);
  return validateRecord(record) === true;
}

/** The layer a call's structuredContent falls in, decided in this order: audit schema → missing → legacy_wrapper → validate_root. */
export function structuredContentTarget(record: AuditRecord, result: unknown): LayerTarget {
  if (!auditRecordValid(record)) return 'schema';
  const content = own(result, 'structuredContent');
  if (!isObject(content)) return 'missing';
  if (record.metaIdTool === true && record.protocol === UNWRAP_PROTOCOL) {
    const keys = Object.keys(content);
    if (keys.length === 1 && keys[0] === 'result' && isObject(own(content, 'result'))) return 'legacy_wrapper';
  }
  return 'validate_root';
}

/** The instance to validate: the inner `result` for legacy_wrapper, the structuredContent root for
 *  validate_root, undefined for schema / missing. */
export function layerInstance(target: LayerTarget, result: unknown): unknown {
  const content = own(result, 'structuredContent');
  switch (target) {
    case 'legacy_wrapper':
      return own(content, 'result');
    case 'validate_root':
      return content;
    default:
      return undefined;
  }
}

/** Decode a JSON-pointer token that may also be percent-encoded (it sits in a URI fragment). */
function decodeToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    /* keep as is */
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Root `$ref: "#/$defs/<name>"` (or draft-07 `#/definitions/<name>`) naming an entry that exists. */
function rootRefIntoDefs(schema: Record<string, unknown>): boolean {
  const ref = own(schema, '$ref');
  if (typeof ref !== 'string') return false;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!match) return false;
  const [, section = '', token = ''] = match;
  const defs = own(schema, section);
  return isObject(defs) && Object.prototype.hasOwnProperty.call(defs, decodeToken(token));
}

/** The 2.0–2.3 SDK wrap: `{properties:{result:{$ref…}}, required:["result"]}`. */
function legacyResultWrap(schema: Record<string, unknown>): boolean {
  const required = own(schema, 'required');
  if (!Array.isArray(required) || required.length !== 1 || required[0] !== 'result') return false;
  const inner = own(own(schema, 'properties'), 'result');
  return isObject(inner) && typeof own(inner, '$ref') === 'string';
}

/** metaIdTool from an advertised outputSchema (a tool whose output was declared with an id). */
export function detectMetaIdTool(outputSchema: unknown): boolean {
  if (!isObject(outputSchema)) return false;
  return rootRefIntoDefs(outputSchema) || legacyResultWrap(outputSchema);
}
