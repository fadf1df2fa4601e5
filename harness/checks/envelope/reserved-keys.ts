// envelope.reserved-keys — no `__proto__`, `constructor` or `prototype` keys at any depth, in the result
// or in its text JSON. Judged on every result, errors included: clients parse those as well.
import { defineCheck, fail, pass, untested } from '../check.ts';
import { isObject, own, token } from '../../json.ts';
import { textItems } from '../views.ts';
import { toolResult } from './_tool-result.ts';

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);
/**
 * Values walked per JSON document at most. No depth bound (the stack is explicit, so depth costs no
 * call stack): a key hidden 300 levels down, or after 200k harmless values, is still found. A 16 MiB
 * answer holds a few million values; past the budget the check says it could not look, never passes.
 */
export const WALK_BUDGET = 20_000_000;

/** The first reserved key in a JSON value (own keys only), or null; `complete` is false when the budget ran out first. */
export function findReservedKey(root: unknown, base: string, budget = WALK_BUDGET): { hit: string | null; complete: boolean } {
  // Nearly every answer has no reserved key: a walk that builds no path says so first (the same order and
  // budget, so the same answer); only a hit is walked again, with the paths, to name where it is.
  const quick = scanForReservedKey(root, budget);
  if (!quick.hit) return { hit: null, complete: quick.complete };
  return findReservedKeyAt(root, base, budget);
}

/** findReservedKey's walk without the paths: whether a reserved key is there, and whether the walk finished. */
function scanForReservedKey(root: unknown, budget: number): { hit: boolean; complete: boolean } {
  const stack: unknown[] = [root];
  let visited = 0;
  while (stack.length > 0) {
    if (++visited > budget) return { hit: false, complete: false };
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    const keys = Object.keys(node);
    for (const k of keys) if (RESERVED.has(k)) return { hit: true, complete: true };
    for (let i = keys.length - 1; i >= 0; i--) stack.push(own(node, keys[i]!));
  }
  return { hit: false, complete: true };
}

function findReservedKeyAt(root: unknown, base: string, budget: number): { hit: string | null; complete: boolean } {
  const stack: Array<[unknown, string]> = [[root, base]];
  let visited = 0;
  while (stack.length > 0) {
    if (++visited > budget) return { hit: null, complete: false };
    const [node, at] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${at}/${i}`]);
      continue;
    }
    const keys = Object.keys(node);
    for (const k of keys) if (RESERVED.has(k)) return { hit: `${at}/${token(k)}`, complete: true };
    for (let i = keys.length - 1; i >= 0; i--) stack.push([own(node, keys[i]!), `${at}/${token(keys[i]!)}`]);
  }
  return { hit: null, complete: true };
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
    const found = findReservedKey(r.result, '/result');
    if (found.hit) return fail(found.hit, 'no __proto__ / constructor / prototype key', `key at ${found.hit}`);
    let complete = found.complete;
    if (isObject(r.result)) {
      for (const t of textItems(r.result)) {
        const inText = findReservedKey(t.json?.value, `/result/content/${t.index}/text`);
        if (inText.hit) return fail(inText.hit, 'no __proto__ / constructor / prototype key', `key in the text JSON at ${inText.hit}`);
        complete &&= inText.complete;
      }
    }
    return complete ? pass() : untested(`the answer holds more than ${WALK_BUDGET} JSON values; the rest was not searched`);
  },
});
