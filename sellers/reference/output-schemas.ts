// The outputSchema each tool advertises, in the two structured-content shapes a client meets:
// - root (MCP TypeScript SDK ≥ 2.4.0 under 2025-11-25): a root `$ref` into `$defs`; structuredContent
//   is the flat payload;
// - legacy (SDK 2.0–2.3): `{properties:{result:{$ref}}, required:["result"], $defs}`; structuredContent
//   is `{result: payload}`.
// Tools without a meta id get a plain object schema in both shapes. Schemas are deliberately loose
// (types of the top-level fields, nothing required) so every real payload validates under Ajv 2020,
// and a broken envelope is reported by the envelope/AdCP-schema checks, not twice.
import type { ToolSpec } from './tools.ts';

export type OutputShape = 'root' | 'legacy';
type Schema = Record<string, unknown>;

/** The `$defs` key of a meta-id tool (what zod's `.meta({ id })` names it). */
export const defName = (tool: string): string => `${tool}_response`;

export function payloadSchema(spec: ToolSpec): Schema {
  return { type: 'object', properties: { ...spec.outputProperties }, additionalProperties: true };
}

export function outputSchemaFor(spec: ToolSpec, shape: OutputShape): Schema {
  if (!spec.metaId) return payloadSchema(spec);
  const ref = `#/$defs/${defName(spec.name)}`;
  const $defs = { [defName(spec.name)]: payloadSchema(spec) };
  return shape === 'root'
    ? { type: 'object', $ref: ref, $defs }
    : { type: 'object', properties: { result: { $ref: ref } }, required: ['result'], $defs };
}
