// schema.output-conformance — a structured result validates against the tool's own outputSchema, at the
// layer the structured-content gate chooses (the root, or the inner object of a legacy wrapper).
import { layerInstance } from '../../extract/layer.ts';
import { defineCheck, untested } from '../check.ts';
import { schemaVerdict } from './_failure.ts';
import { describesResultWrapper, layerOf } from './_layer.ts';

export default defineCheck({
  id: 'schema.output-conformance',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: "`structuredContent` validates against the tool's `outputSchema` (for a legacy `{result:…}` wrapper, its inner object)",
  spec: {
    label: 'MCP 2025-11-25 · Server features › Tools › Output schema (servers MUST provide structured results that conform to it)',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema',
  },
  fix: 'make structuredContent match the outputSchema you advertise (or fix the schema): same required fields, types and enums; an MCP SDK `z.object` outputSchema is advertised with `additionalProperties: false`, so list every field you return (status, context …) or use `z.looseObject`',
  judge(x, ctx) {
    const layer = layerOf(x, ctx);
    if ('verdict' in layer) return layer.verdict;
    // Outside the gate (a revision it does not cover) or without structuredContent the rule still
    // applies, but which JSON to validate is undecided: not verified, never passed.
    if ('reason' in layer) return untested(layer.reason);
    if (!ctx.schemas) return untested('no schema service: the outputSchema was not run');
    // legacy_wrapper: the inner object is what the schema describes — unless the advertised schema is
    // itself the 2.0–2.3 wrap ({properties:{result:…}, required:["result"]}); then the wrapper is
    // validated against it, which validates the inner object against `properties.result`.
    const wholeWrapper = layer.target === 'legacy_wrapper' && describesResultWrapper(layer.schema);
    const instance = wholeWrapper ? layerInstance('validate_root', layer.result) : layerInstance(layer.target, layer.result);
    const answer = ctx.schemas.validateOutput(x.tool, layer.schema, instance);
    if ('skip' in answer) return untested(answer.skip);
    const base = layer.target === 'legacy_wrapper' && !wholeWrapper ? '/result/structuredContent/result' : '/result/structuredContent';
    return schemaVerdict(base, answer);
  },
});
