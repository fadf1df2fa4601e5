// `$id`s inside a seller's outputSchema, and which of them a JSON Schema compiler rejects.
import { describeType, MAX_DEPTH, own, token } from '../../json.ts';

/** Every `$id` in a schema (explicit stack, depth and count bound) with its pointer. */
export function idsIn(schema: unknown, base: string): Array<{ pointer: string; id: unknown }> {
  const out: Array<{ pointer: string; id: unknown }> = [];
  const stack: Array<[unknown, string, number]> = [[schema, base, 0]];
  while (stack.length > 0 && out.length < 1000) {
    const [node, at, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object' || depth > MAX_DEPTH) continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) stack.push([node[i], `${at}/${i}`, depth + 1]);
      continue;
    }
    for (const k of Object.keys(node)) {
      const v = own(node, k);
      // `properties` maps names to schemas: a property called "$id" is not an id.
      if (k === '$id' && !at.endsWith('/properties')) out.push({ pointer: `${at}/$id`, id: v });
      else stack.push([v, `${at}/${token(k)}`, depth + 1]);
    }
  }
  return out;
}

/**
 * Why a `$id` is not a URI Ajv accepts, or null. A colon before any `/ ? #` makes the prefix a URI
 * scheme, which RFC 3986 restricts to `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` — so
 * `my_tool:output` is rejected (fast-uri ≥ 3.1.6, the URI parser Ajv uses).
 */
export function badSchemaId(id: unknown): string | null {
  if (typeof id !== 'string') return `$id is ${describeType(id)}, not a string`;
  if (/\s/.test(id)) return 'whitespace in $id';
  const scheme = /^([^:/?#]*):/.exec(id);
  if (scheme && !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme[1]!)) return `"${scheme[1]}:" is not a legal URI scheme`;
  return null;
}
