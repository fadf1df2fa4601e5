// A capture as JSON text, exactly as the seller's values were parsed: JSON.stringify would write a number
// too large for a double (`1e400`, which JSON.parse reads as Infinity) as `null` — turning "not a finite
// number" into "null" in a recording — and it overflows the call stack on an answer nested 200k levels
// deep. This writes ±Infinity as ±1e400 (valid JSON that parses back to ±Infinity) and never recurses.
import { own } from '../json.ts';

/** JSON text of plain JSON data (what JSON.parse produced, plus our own objects): never throws on depth. */
export function toJsonText(value: unknown): string {
  let nonFinite = false;
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v)) nonFinite = true;
      return v;
    });
    if (!nonFinite) return text ?? 'null';
  } catch (err) {
    if (!(err instanceof RangeError)) throw err; // too deep: written below without recursion
  }
  return iterative(value);
}

type Frame = { v: unknown } | string;

/** The same text as JSON.stringify for plain data (undefined dropped from objects, null in arrays), non-finite numbers as ±1e400. */
function iterative(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [{ v: root }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const v = item.v;
    if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') out.push('null');
    else if (typeof v === 'number')
      out.push(Number.isFinite(v) ? JSON.stringify(v) : Number.isNaN(v) ? 'null' : v > 0 ? '1e400' : '-1e400');
    else if (typeof v === 'bigint') out.push(v.toString());
    else if (typeof v !== 'object') out.push(JSON.stringify(v));
    else if (Array.isArray(v)) {
      // Pushed in reverse: the stack pops them in order.
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ v: v[i] });
        if (i > 0) stack.push(',');
      }
      out.push('[');
    } else {
      const entries = Object.keys(v)
        .map((k) => [k, own(v, k)] as const)
        .filter(([, x]) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol');
      stack.push('}');
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i]!;
        stack.push({ v: x }, `${JSON.stringify(k)}:`);
        if (i > 0) stack.push(',');
      }
      out.push('{');
    }
  }
  return out.join('');
}
