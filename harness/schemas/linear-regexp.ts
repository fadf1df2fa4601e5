// A linear-time `pattern` engine for Ajv (its `code.regExp` option), for seller outputSchemas. JSON Schema
// patterns are ECMA-262 regexes run by a backtracking engine: a seller's `^(a+)+$` against 30 `a`s and a
// `b` takes minutes, and its own answer supplies the string. Here a pattern is translated to RE2 syntax
// with JavaScript's meaning kept (`.`, `\s` and `[]` differ between the two) and run by re2js (a pure-JS
// RE2: no native build, linear in the input). A pattern RE2 cannot express (lookaround, backreferences,
// `\p{Letter}`, counted repeats over 1000) runs on the native engine; `nativePatternsIn()` lists those
// so a deadline can name them.
import { RE2JS } from 're2js';

/** What Ajv calls a pattern: `test` only (Ajv never uses `exec`, flags or lastIndex). */
export interface PatternTester {
  test(s: string): boolean;
  /** Ajv dedupes compiled patterns by this string: one per source pattern. */
  toString(): string;
  /** Which engine runs this pattern. */
  readonly engine: 'linear' | 'native';
}

/** JavaScript's `\s`: WhiteSpace and LineTerminator code points (ECMA-262 CharacterClassEscape). */
const JS_SPACE = '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** JavaScript's `.` without the `s` flag: anything but a line terminator. */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const NOTHING = '[^\\x{0}-\\x{10FFFF}]';
const ANYTHING = '[\\x{0}-\\x{10FFFF}]';

class Untranslatable extends Error {}

const hex = (cp: number): string => `\\x{${cp.toString(16).toUpperCase()}}`;
const isHex = (s: string): boolean => /^[0-9A-Fa-f]+$/.test(s);

/**
 * The RE2 form of a JavaScript `u`-mode pattern that already compiled natively, or undefined when RE2
 * cannot say the same thing. Every construct is mapped explicitly; anything not understood gives up
 * (the pattern then runs natively) rather than risk a different meaning.
 */
export function toRe2Syntax(pattern: string): string | undefined {
  try {
    return translate(pattern);
  } catch (e) {
    if (e instanceof Untranslatable) return undefined;
    throw e;
  }
}

function translate(p: string): string {
  let out = '';
  let i = 0;
  const n = p.length;

  /** An escape at p[i] === '\\'; returns the RE2 text and advances `i`. */
  const escape = (inClass: boolean): string => {
    const c = p[i + 1];
    if (c === undefined) throw new Untranslatable();
    i += 2;
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 'n':
      case 'r':
      case 't':
      case 'f':
        return `\\${c}`;
      case 'v':
        return '\\x{0B}';
      case 'b':
        // A word boundary outside a class; a backspace inside one.
        return inClass ? '\\x{08}' : '\\b';
      case 'B':
        if (inClass) throw new Untranslatable();
        return '\\B';
      case 's':
        return inClass ? JS_SPACE : `[${JS_SPACE}]`;
      case 'S':
        if (inClass) throw new Untranslatable();
        return `[^${JS_SPACE}]`;
      case '0':
        return '\\x{0}';
      case 'c': {
        const letter = p[i];
        if (letter === undefined || !/[A-Za-z]/.test(letter)) throw new Untranslatable();
        i++;
        return hex(letter.charCodeAt(0) % 32);
      }
      case 'x': {
        const h = p.slice(i, i + 2);
        if (h.length !== 2 || !isHex(h)) throw new Untranslatable();
        i += 2;
        return hex(parseInt(h, 16));
      }
      case 'u': {
        if (p[i] === '{') {
          const end = p.indexOf('}', i);
          const h = p.slice(i + 1, end);
          if (end < 0 || !isHex(h) || h.length > 6) throw new Untranslatable();
          i = end + 1;
          return hex(parseInt(h, 16));
        }
        const h = p.slice(i, i + 4);
        if (h.length !== 4 || !isHex(h)) throw new Untranslatable();
        i += 4;
        let cp = parseInt(h, 16);
        // `\uD83D\uDE00` is one code point in u-mode.
        const low = /^\\u([Dd][C-Fc-f][0-9A-Fa-f]{2})/.exec(p.slice(i));
        if (cp >= 0xd800 && cp <= 0xdbff && low) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00);
          i += 6;
        } else if (cp >= 0xd800 && cp <= 0xdfff) {
          throw new Untranslatable(); // a lone surrogate: RE2 has no such code point
        }
        return hex(cp);
      }
      case 'p':
      case 'P': {
        // Only the short General_Category names (L, Lu, Nd…) mean the same in both engines.
        const m = /^\{([A-Z][a-z]?)\}/.exec(p.slice(i));
        if (!m) throw new Untranslatable();
        i += m[0].length;
        return `\\${c}{${m[1]}}`;
      }
      default:
        // u-mode allows only syntax characters (and `-` in a class) as identity escapes.
        if ('^$\\.*+?()[]{}|/-'.includes(c)) return `\\${c}`;
        throw new Untranslatable(); // backreferences (\1, \k<name>) and anything else
    }
  };

  const classBody = (): string => {
    // At p[i] === '['.
    i++;
    let negate = false;
    if (p[i] === '^') {
      negate = true;
      i++;
    }
    if (p[i] === ']') {
      // `[]` matches nothing and `[^]` anything in JavaScript; RE2 reads a leading `]` as a literal.
      i++;
      return negate ? ANYTHING : NOTHING;
    }
    let body = '';
    while (i < n && p[i] !== ']') {
      const ch = p[i]!;
      if (ch === '\\') {
        body += escape(true);
      } else if (ch === '-') {
        body += '-';
        i++;
      } else {
        const cp = p.codePointAt(i)!;
        const width = cp > 0xffff ? 2 : 1;
        // Escape every ASCII punctuation (`[` would start a POSIX class `[:alpha:]` in RE2).
        body += cp < 0x80 && /[^A-Za-z0-9]/.test(ch) ? `\\${ch}` : p.slice(i, i + width);
        i += width;
      }
    }
    if (p[i] !== ']') throw new Untranslatable();
    i++;
    return `[${negate ? '^' : ''}${body}]`;
  };

  while (i < n) {
    const ch = p[i]!;
    if (ch === '\\') {
      out += escape(false);
    } else if (ch === '[') {
      out += classBody();
    } else if (ch === '.') {
      out += JS_DOT;
      i++;
    } else if (ch === '(') {
      if (p.startsWith('(?:', i)) {
        out += '(?:';
        i += 3;
      } else if (p.startsWith('(?<', i) && p[i + 3] !== '=' && p[i + 3] !== '!') {
        out += '(?P<';
        i += 3;
      } else if (p[i + 1] === '?') {
        throw new Untranslatable(); // lookahead / lookbehind
      } else {
        out += '(';
        i++;
      }
    } else {
      const cp = p.codePointAt(i)!;
      const width = cp > 0xffff ? 2 : 1;
      out += p.slice(i, i + width);
      i += width;
    }
  }
  return out;
}

const cache = new Map<string, PatternTester>();
const CACHE_MAX = 5_000;

/** The tester for one pattern: linear when RE2 can express it, native otherwise. Throws like `new RegExp`. */
export function patternTester(pattern: string): PatternTester {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const native = new RegExp(pattern, 'u'); // the ECMA-262 verdict on the syntax (compiling is linear)
  const label = `/${pattern}/u`;
  let tester: PatternTester;
  const re2 = toRe2Syntax(pattern);
  let compiled: RE2JS | undefined;
  try {
    compiled = re2 === undefined ? undefined : RE2JS.compile(re2);
  } catch {
    compiled = undefined; // RE2 limits (e.g. repeat counts over 1000): the native engine takes it
  }
  if (compiled) {
    const re = compiled;
    tester = { engine: 'linear', test: (s: string) => re.test(s), toString: () => label };
  } else {
    tester = { engine: 'native', test: (s: string) => native.test(s), toString: () => label };
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(pattern, tester);
  return tester;
}

/** Ajv's `code.regExp` engine. `code` only matters for standalone code, which the harness never emits. */
export const linearRegExp = Object.assign((pattern: string, _flags: string) => patternTester(pattern), { code: 'linearRegExp' });
