// The linear pattern engine must mean what the ECMA-262 pattern means: every pattern of the AdCP trees
// and a set of tricky ones are run on both engines over inputs built from the characters where RE2 and
// JavaScript disagree (line terminators, Unicode spaces, astral and lone surrogate code units).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { linearRegExp, patternTester, toRe2Syntax } from '../../harness/schemas/linear-regexp.ts';

const TRICKY = [
  '^\\s*$',
  '^\\S+$',
  '^.$',
  '^.+$',
  '^[\\s\\d]+$',
  '^[^\\s]+$',
  '[]',
  '[^]',
  '^[^]+$',
  '^\\w+\\b',
  '^[\\b]$',
  '^\\v\\f$',
  '^\\cJ$',
  '^\\0$',
  '^\\x41\\u00e9\\u{1F600}$',
  '^\\uD83D\\uDE00$',
  '^[😀-😂]$',
  '^\\p{Lu}\\P{L}$',
  '^(?<year>\\d{4})-(?:\\d\\d)$',
  '^[\\-\\]\\\\\\^]+$',
  '^[a\\-z]$',
  '^\\/\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\$$',
  '^[.*+?(){}|$^]+$',
  'a{2,3}b*?c+?',
  '^(a+)+$',
  '(a|aa)*c',
  '^[[:a]+$',
  'é+',
  '\\d{2,}',
];

/** Every `pattern` of the AdCP schema trees the @adcp/sdk ships. */
function adcpPatterns(): string[] {
  const require = createRequire(import.meta.url);
  const root = path.join(path.dirname(require.resolve('@adcp/sdk/package.json')), 'dist', 'lib', 'schemas-data');
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === 'pattern' && typeof v === 'string') found.add(v);
        else walk(v);
      }
    }
  };
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) visit(file);
      else if (name.endsWith('.json')) walk(JSON.parse(readFileSync(file, 'utf8')));
    }
  };
  visit(root);
  return [...found];
}

const ALPHABET = [
  'a',
  'b',
  'A',
  'Z',
  'z',
  '0',
  '7',
  '_',
  '-',
  '.',
  ':',
  '/',
  '#',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u3000',
  'é',
  'É',
  '😀',
  '😁',
  '\ud83d',
  '\ude00',
  '\u0000',
  '\u0008',
  ']',
  '\\',
  '$',
  'c',
  'x',
  'Y',
  'https://',
  'sha256:',
];

/** Deterministic pseudo-random inputs (a fixed LCG: the same inputs every run). */
function inputs(count: number): string[] {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const out = ['', 'aaaa', '2026-01-01', 'USD', 'example.com', 'https://x.example/a', 'a'.repeat(40) + 'b'];
  for (let k = 0; k < count; k++) {
    let s = '';
    const len = next() % 12;
    for (let j = 0; j < len; j++) s += ALPHABET[next() % ALPHABET.length];
    out.push(s);
  }
  return out;
}

describe('linear pattern engine', () => {
  const strings = inputs(400);

  test('agrees with the native engine on every AdCP pattern and every tricky one', () => {
    const patterns = [...adcpPatterns(), ...TRICKY];
    expect(patterns.length).toBeGreaterThan(60);
    const disagreements: string[] = [];
    let linear = 0;
    for (const p of patterns) {
      const tester = patternTester(p);
      if (tester.engine === 'linear') linear++;
      const native = new RegExp(p, 'u');
      // The exponential pattern is compared only on short inputs natively.
      const subject = p === '^(a+)+$' || p === '(a|aa)*c' ? strings.filter((s) => s.length < 20) : strings;
      for (const s of subject) {
        if (tester.test(s) !== native.test(s))
          disagreements.push(`${p} on ${JSON.stringify(s)}: linear ${tester.test(s)}, native ${native.test(s)}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect(linear).toBeGreaterThan(patterns.length - 10); // the odd lookahead runs natively
  });

  test('what RE2 cannot express runs natively, and is labelled so', () => {
    for (const p of ['^P(?!$)\\d$', '(?<=a)b', '^(a)\\1$', '^(?<x>a)\\k<x>$', '^\\p{Letter}$', '^a{1001}$', '^\\uD800$']) {
      expect(patternTester(p).engine, p).toBe('native');
    }
    expect(toRe2Syntax('(?=a)')).toBeUndefined();
  });

  test('a pattern that backtracks catastrophically natively runs in linear time', () => {
    const tester = patternTester('^(a+)+$');
    expect(tester.engine).toBe('linear');
    const started = performance.now();
    expect(tester.test(`${'a'.repeat(5000)}b`)).toBe(false);
    expect(tester.test('a'.repeat(5000))).toBe(true);
    // Natively this input would not finish in a lifetime; the bound is loose on purpose.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  test('a syntax error is the native one, and Ajv sees one tester per pattern', () => {
    expect(() => patternTester('^[a-$')).toThrow(SyntaxError);
    expect(String(linearRegExp('^a$', 'u'))).toBe('/^a$/u');
    expect(String(linearRegExp('^b$', 'u'))).not.toBe(String(linearRegExp('^a$', 'u')));
  });
});
