import { describe, expect, test } from 'vitest';
import { escapeMarkdown, escapeXml, optionalText, sellerText, stripUnsafe, truncate } from '../../harness/sanitize.ts';

describe('stripUnsafe', () => {
  test('removes C0/C1 controls, DEL and ANSI escapes, keeps printable text', () => {
    expect(stripUnsafe('a\u0000b\u0007c\u001b[31mred\u001b[0m\u007f\u0085\u009b')).toBe('abc[31mred[0m ');
  });
  test('turns line breaks and tabs into spaces so a seller cannot forge report lines', () => {
    expect(stripUnsafe('one\ntwo\r\nthree\tfour\u2028five')).toBe('one two  three four five');
  });
  test.for([
    ['U+202E RLO', '\u202E'],
    ['U+202A LRE', '\u202A'],
    ['U+2066 LRI', '\u2066'],
    ['U+2069 PDI', '\u2069'],
    ['U+200E LRM', '\u200E'],
    ['U+200F RLM', '\u200F'],
    ['U+061C ALM', '\u061C'],
    ['U+200B ZWSP', '\u200B'],
    ['U+FEFF BOM', '\uFEFF'],
  ])('removes %s', ([, ch]) => {
    expect(stripUnsafe(`safe${ch}txt.exe`)).toBe('safetxt.exe');
  });
  test('replaces lone surrogates (invalid XML) and keeps real pairs', () => {
    expect(stripUnsafe('a\uD800b\uDC00c😀')).toBe('a\uFFFDb\uFFFDc😀');
  });
  test('keeps ordinary non-ASCII text', () => {
    expect(stripUnsafe('Café — 東京 › ok')).toBe('Café — 東京 › ok');
  });
});

describe('truncate', () => {
  test('leaves short text alone', () => expect(truncate('abc', 3)).toBe('abc'));
  test('cuts by code points, never inside a surrogate pair, and says how much was dropped', () => {
    expect(truncate('😀😀😀😀', 2)).toBe('😀😀… (+2 chars)');
  });
});

describe('sellerText', () => {
  const secrets = ['s3cr3t-token'];
  test('redacts secrets', () => expect(sellerText('auth s3cr3t-token failed', secrets)).toBe('auth [REDACTED] failed'));
  test('redacts a secret hidden by a bidi or control character inside it', () => {
    expect(sellerText('s3cr3t\u202E-token and s3cr\u00003t-token', secrets)).toBe('[REDACTED] and [REDACTED]');
  });
  test('truncates after redaction, so no part of a secret survives the cut', () => {
    const out = sellerText('x'.repeat(10) + 's3cr3t-token', secrets, 14);
    expect(out).not.toContain('s3cr3t');
    expect(out.startsWith('xxxxxxxxxx[RED')).toBe(true);
  });
  test('stringifies non-strings as JSON and survives hostile values', () => {
    expect(sellerText({ a: 1 })).toBe('{"a":1}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(sellerText(cyclic)).toBe('[unserializable value]');
    expect(sellerText(JSON.parse('{"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1}}');
    expect(sellerText(undefined)).toBe('');
  });
  test('bounds length by default', () => expect(sellerText('y'.repeat(5000)).length).toBeLessThan(1100));
});

describe('optionalText', () => {
  test('strings and numbers become text; anything else is null', () => {
    expect(optionalText('ref')).toBe('ref');
    expect(optionalText(3)).toBe('3');
    expect(optionalText({ name: 'x' })).toBeNull();
    expect(optionalText(undefined)).toBeNull();
  });
});

describe('escaping', () => {
  test('escapeXml escapes all five XML specials', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
  test('escapeXml drops what XML 1.0 forbids (C0 controls, U+FFFE/U+FFFF, lone surrogates), keeps tab/LF/CR and pairs', () => {
    expect(escapeXml('a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf\uFFFFg\uD800h\uDC00i')).toBe('abcdefghi');
    expect(escapeXml('\t\n\r \u{1F600} \uFFFD')).toBe('\t\n\r \u{1F600} \uFFFD');
  });
  test('escapeMarkdown neutralises HTML, links, emphasis and table cell breaks', () => {
    const out = escapeMarkdown('<img src=x> [click](http://evil) *b* | `c`');
    expect(out).not.toMatch(/<|(?<!\\)[[\]|*`]/);
    expect(out).toContain('&lt;img');
    expect(out).toContain('\\|');
  });
});
