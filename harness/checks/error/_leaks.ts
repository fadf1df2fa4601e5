// Signs that an error text carries server internals: stack frames, absolute file paths, exception class
// prefixes, SQL, HTML bodies. Patterns are narrow on purpose (few false positives): SQL keywords must be
// upper case, paths must sit under a well-known root or end in a source-file extension, exception
// prefixes are the runtime's own class names.
import { isObject, own, token } from '../../json.ts';

export interface Leak {
  kind: string;
  snippet: string;
}

const PATTERNS: ReadonlyArray<[kind: string, re: RegExp]> = [
  // JS frames `at fn (/srv/x.js:1:2)` / `at /srv/x.js:1:2` / `at node:internal/x:1:2`; Java `at a.b.C(C.java:12)`.
  ['stack frame', /\bat\s+(?:[^\s()]+(?:\s\[as [^\]]+\])?\s+)?\(?(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s():]*(?::\d+){1,2}\)?/],
  ['stack frame', /\bat\s+[\w$.]+\([\w$]+\.(?:java|kt|scala):\d+\)/],
  ['stack frame', /Traceback \(most recent call last\)|\bFile "[^"]+", line \d+/],
  [
    'file path',
    /(?:^|[\s"'(=,[])(?:\/(?:home|srv|usr|var|opt|app|etc|root|tmp|Users|workspace|private|mnt|code|node_modules)\/[^\s"')\]]+|[A-Za-z]:\\[^\s"')\]]+|\/[\w.\-/]+\.(?:js|mjs|cjs|ts|tsx|py|rb|go|java|php|cs|rs)\b)/,
  ],
  ['exception text', /\b(?:TypeError|ReferenceError|SyntaxError|RangeError|EvalError|URIError|AggregateError|InternalError)\s*:/],
  ['exception text', /\b[A-Z]\w*Exception\s*:|\b(?:java|javax|kotlin|org|com|sun|System)\.[\w.]+(?:Exception|Error)\b/],
  [
    'exception text',
    /Cannot read propert(?:y|ies) of|Cannot set propert(?:y|ies) of|Cannot use 'in' operator|is not a function\b|is not iterable\b|undefined is not an object|Unexpected token .{1,40} in JSON|Maximum call stack size exceeded|NullPointerException|Segmentation fault|panic: runtime error/,
  ],
  [
    'SQL',
    /\bSELECT\s[^;]{1,200}?\sFROM\s|\bINSERT\s+INTO\s|\bDELETE\s+FROM\s|\bUPDATE\s+\S+\s+SET\s|\bSQLSTATE\b|syntax error at or near|\bORA-\d{5}\b|duplicate key value violates|\bSQLITE_[A-Z]+\b|\bER_[A-Z_]{4,}\b/,
  ],
  ['HTML body', /<(?:!DOCTYPE\s+html|html|head|body|title|h1|pre)[\s>]/i],
];

/** Cap on the text one scan reads: the error object itself is ≤ 4 KiB when conformant. */
const SCAN_CHARS = 16_384;

/** The first sign of internals in one string, or null. */
export function findLeak(text: string): Leak | null {
  const s = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
  for (const [kind, re] of PATTERNS) {
    const m = re.exec(s);
    if (m) return { kind, snippet: m[0].trim() };
  }
  return null;
}

const MAX_STRINGS = 2_000;
// Error details are small; deeper nesting is not worth scanning (and a hostile one is bounded here).
const MAX_STRING_DEPTH = 32;

/** Every string inside a JSON value (keys' values, array items), with its pointer suffix; bounded. */
export function stringsIn(value: unknown, base: string): Array<{ pointer: string; text: string }> {
  const out: Array<{ pointer: string; text: string }> = [];
  const stack: Array<[unknown, string, number]> = [[value, base, 0]];
  while (stack.length > 0 && out.length < MAX_STRINGS) {
    const [node, at, depth] = stack.pop()!;
    if (typeof node === 'string') out.push({ pointer: at, text: node });
    else if (depth >= MAX_STRING_DEPTH) continue;
    else if (Array.isArray(node)) for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${at}/${i}`, depth + 1]);
    else if (isObject(node)) {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        stack.push([own(node, k), `${at}/${token(k)}`, depth + 1]);
      }
    }
  }
  return out;
}
