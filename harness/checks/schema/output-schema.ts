// schema.output-schema — each advertised outputSchema is a schema a client can use: root type `object`,
// every `$id` a URI a compiler accepts, and it compiles under its own dialect. The structural rules
// need no compiler; the compile step needs the schema service.
import { defineCheck, fail, notApplicable, pass, untested, type AgentVerdict } from '../check.ts';
import { describeType, hasOwn, isObject, own, preview } from '../../json.ts';
import { listedTools } from '../transport/_listed-tools.ts';
import { badSchemaId, idsIn } from './_schema-ids.ts';

/** Structural problems of one outputSchema, before any compiler sees it. */
function structuralProblem(schema: unknown, base: string): { pointer: string; expected: string; found: string } | null {
  if (!isObject(schema)) return { pointer: base, expected: 'a JSON Schema object', found: `${describeType(schema)} ${preview(schema)}` };
  const type = own(schema, 'type');
  if (type !== 'object')
    return { pointer: `${base}/type`, expected: 'root type "object" (MCP)', found: type === undefined ? 'absent' : preview(type) };
  for (const { pointer, id } of idsIn(schema, base)) {
    const why = badSchemaId(id);
    if (why) return { pointer, expected: 'a $id that is a valid URI (reference)', found: `${preview(id)}: ${why}` };
  }
  return null;
}

export default defineCheck({
  id: 'schema.output-schema',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title: 'each declared `outputSchema` compiles under its dialect, has root type `object`, and every `$id` is a URI Ajv accepts',
  spec: {
    label:
      'MCP 2025-11-25 · Server features › Tools › Output schema (a JSON Schema of root type object; 2020-12 unless $schema says otherwise)',
    url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema',
  },
  fix: 'advertise `outputSchema: {type:"object", properties:{…}}` that compiles; use `$id: "my_tool_output"` or `$defs`, never `my_tool:output`',
  judge(a, ctx): AgentVerdict[] {
    const listed = listedTools(a);
    if ('verdict' in listed) return [{ subject: 'tools/list', verdict: listed.verdict }];
    const out: AgentVerdict[] = [];
    listed.tools.forEach((tool, i) => {
      if (!hasOwn(tool, 'outputSchema')) return;
      const name = own(tool, 'name');
      const subject = typeof name === 'string' ? name : `tools/${i}`;
      const schema = own(tool, 'outputSchema');
      const problem = structuralProblem(schema, `/tools/${i}/outputSchema`);
      if (problem) return out.push({ subject, verdict: fail(problem.pointer, problem.expected, problem.found) });
      if (!ctx.schemas)
        return out.push({ subject, verdict: untested('no schema service: checked structurally only (root type, $id), not compiled') });
      const compiled = ctx.schemas.compileOutputSchema(subject, schema);
      out.push({
        subject,
        verdict: compiled.ok ? pass() : fail(`/tools/${i}/outputSchema`, 'a schema that compiles under its dialect', compiled.message),
      });
    });
    if (out.length === 0) return [{ subject: 'tools/list', verdict: notApplicable('no tool declares an outputSchema') }];
    return out;
  },
});
