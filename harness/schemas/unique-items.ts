// A linear-time `uniqueItems` for Ajv. Ajv's own keyword compares items pairwise with a deep equal
// whenever the items are not declared scalar: O(n²) — 100k distinct objects in a 1 MiB answer kept
// the (synchronous) validator busy for minutes, past every timeout. Here each item gets a canonical
// JSON key (object keys sorted, so key order does not matter, as in Ajv's deep equal) and a Set finds
// the first duplicate. The error keeps Ajv's shape: keyword `uniqueItems`, params `{i, j}` (j < i).
import type { Ajv, ErrorObject, FuncKeywordDefinition } from 'ajv';

/** Canonical JSON of a JSON value: object keys sorted, own properties only, iterative (hostile nesting
 *  never overflows the stack). Literal tokens are strings on the work stack; values are wrapped. */
export function canonicalKey(value: unknown): string {
  const out: string[] = [];
  const stack: Array<{ v: unknown } | string> = [{ v: value }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const v = item.v;
    if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v) ?? 'null');
    } else if (Array.isArray(v)) {
      out.push('[');
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ v: v[i] });
        if (i > 0) stack.push(',');
      }
    } else {
      out.push('{');
      stack.push('}');
      const keys = Object.keys(v).sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        stack.push({ v: Object.getOwnPropertyDescriptor(v, k)?.value }, `${JSON.stringify(k)}:`);
        if (i > 0) stack.push(',');
      }
    }
  }
  return out.join('');
}

/**
 * The keyword's validate function: one for every Ajv instance of the thread. Ajv's generated code sets its
 * `errors` to null, calls it and reads `errors` back, synchronously, so sharing it is safe. Being a module
 * export is what lets precompiled (standalone) validators use it: their code imports it by this name
 * (precompile.ts), where code compiled at run time reaches it through the Ajv instance.
 */
export const linearUniqueItems = Object.assign(
  (unique: boolean, data: unknown[]): boolean => {
    linearUniqueItems.errors = undefined;
    if (!unique || !Array.isArray(data)) return true;
    const firstAt = new Map<string, number>();
    for (let i = 0; i < data.length; i++) {
      const key = canonicalKey(data[i]);
      const j = firstAt.get(key);
      if (j !== undefined) {
        const message = `must NOT have duplicate items (items ## ${j} and ${i} are identical)`;
        linearUniqueItems.errors = [{ keyword: 'uniqueItems', params: { i, j }, message }];
        return false;
      }
      firstAt.set(key, i);
    }
    return true;
  },
  // Ajv reads a function keyword's errors from the function's own `errors` property and adds
  // instancePath / schemaPath to each.
  { errors: undefined as Array<Partial<ErrorObject>> | undefined },
);

/** Replace Ajv's `uniqueItems` with the linear one. Call on a fresh instance, before any compile. */
export function useLinearUniqueItems(ajv: Ajv): void {
  ajv.removeKeyword('uniqueItems');
  const definition: FuncKeywordDefinition = {
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    validate: linearUniqueItems,
  };
  ajv.addKeyword(definition);
}
