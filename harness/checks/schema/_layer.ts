// Which JSON a success's outputSchema describes (the structured-content layer gate of
// harness/extract/layer.ts): the structuredContent root, or — for a tool whose output was declared with
// an id, under MCP 2025-11-25 — the inner object of a legacy `{result:{…}}` wrapper (the MCP TypeScript
// SDK before 2.4.0 wrapped; 2.4.0 unwraps). The gate's other two branches are not a layer: `schema`
// (the call is outside the revisions the gate covers) and `missing` (no structuredContent object).
import type { Exchange } from '../../record/exchange.ts';
import { notApplicable, type CheckContext, type Verdict } from '../check.ts';
import { isObject, own, preview, type JsonObject } from '../../json.ts';
import { layerTarget, outputSchemaOf, successResult } from '../views.ts';

export type Layer =
  | { target: 'legacy_wrapper' | 'validate_root'; result: JsonObject; schema: unknown }
  /** The gate found no layer: the reason says why (the caller decides not-applicable vs untested), and which check owns it. */
  | { target: 'schema' | 'missing'; reason: string };

/** The layer of a success with an outputSchema, or the verdict that stands in for it (not a success, no outputSchema). */
export function layerOf(x: Exchange, ctx: CheckContext): Layer | { verdict: Verdict } {
  const s = successResult(x);
  if ('verdict' in s) return s;
  const schema = outputSchemaOf(x);
  if (schema === undefined) return { verdict: notApplicable(`'${String(x.tool)}' declares no outputSchema`) };
  const target = layerTarget(x, ctx, s.result);
  // Before 2025-11-25 no SDK wrapped structured output in `result`: the revision that introduced
  // outputSchema (2025-06-18) validates structuredContent at its root, as the MCP spec says.
  if (target === 'schema' && rootOnlyRevision(x.protocolVersion) && isObject(own(s.result, 'structuredContent'))) {
    return { target: 'validate_root', result: s.result, schema };
  }
  if (target === 'schema') {
    const call = `tool ${preview(x.tool)}, protocol ${preview(x.protocolVersion)}`;
    return {
      target,
      reason: `the structured-content layer is defined for MCP 2025-11-25 and 2026-07-28 only; this call (${call}) is outside it`,
    };
  }
  if (target === 'missing') return { target, reason: 'no structuredContent object: see envelope.structured-content' };
  return { target, result: s.result, schema };
}

/** An MCP revision with outputSchema but before the structured-content layer question (2025-06-18 up to 2025-11-25). */
export function rootOnlyRevision(protocol: unknown): boolean {
  return typeof protocol === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(protocol) && protocol >= '2025-06-18' && protocol < '2025-11-25';
}

/** The SDK 2.0–2.3 output schema shape: the payload declared under a required `result` property. */
export function describesResultWrapper(schema: unknown): boolean {
  const required = own(schema, 'required');
  return Array.isArray(required) && required.includes('result') && isObject(own(own(schema, 'properties'), 'result'));
}
