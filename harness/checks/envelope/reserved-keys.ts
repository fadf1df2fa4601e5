// envelope.reserved-keys — no `__proto__`, `constructor` or `prototype` keys at any depth, in the result
// or in its text JSON. Judged on every result, errors included: clients parse those as well.
import { defineCheck, fail, pass } from '../check.ts';
import { isObject, MAX_DEPTH, own, token } from '../json.ts';
import { textItems } from '../views.ts';
import { toolResult } from './_tool-result.ts';

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);
const WALK_BUDGET = 200_000;

/** First reserved key in a JSON value: explicit stack, depth bound, node budget, own keys only. */
export function findReservedKey(root: unknown, base: string): string | null {
  const stack: Array<[unknown, string, number]> = [[root, base, 0]];
  let visited = 0;
  while (stack.length > 0 && visited < WALK_BUDGET) {
    const [node, at, depth] = stack.pop()!;
    visited++;
    if (node === null || typeof node !== 'object' || depth > MAX_DEPTH) continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${at}/${i}`, depth + 1]);
      continue;
    }
    const keys = Object.keys(node);
    for (const k of keys) if (RESERVED.has(k)) return `${at}/${token(k)}`;
    for (let i = keys.length - 1; i >= 0; i--) stack.push([own(node, keys[i]!), `${at}/${token(keys[i]!)}`, depth + 1]);
  }
  return null;
}

export default defineCheck({
  id: 'envelope.reserved-keys',
  scope: 'exchange',
  severity: 'SHOULD',
  live: false,
  title: 'no `__proto__`, `constructor` or `prototype` keys at any depth',
  spec: {
    label: 'AdCP · MCP response extraction › Security considerations › Prototype pollution',
    url: 'https://adcontextprotocol.org/docs/building/by-layer/L0/mcp-response-extraction#prototype-pollution',
  },
  fix: 'rename or drop keys named `__proto__`, `constructor` or `prototype` in structuredContent and in text JSON',
  judge(x) {
    const r = toolResult(x);
    if ('verdict' in r) return r.verdict;
    const hit = findReservedKey(r.result, '/result');
    if (hit) return fail(hit, 'no __proto__ / constructor / prototype key', `key at ${hit}`);
    if (isObject(r.result)) {
      for (const t of textItems(r.result)) {
        const inText = findReservedKey(t.json?.value, `/result/content/${t.index}/text`);
        if (inText) return fail(inText, 'no __proto__ / constructor / prototype key', `key in the text JSON at ${inText}`);
      }
    }
    return pass();
  },
});
