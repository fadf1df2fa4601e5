// Success extraction: the spec's decision, the pointer it came from, and the size measures.
import { describe, expect, test } from 'vitest';
import { extractSuccess, isAdcpErrorOnly, locateSuccess, TEXT_LIMIT, textSize, utf8Bytes } from '../../harness/extract/success.ts';

const data = { status: 'completed', products: [] };
const text = (t: unknown) => ({ type: 'text', text: t });

describe('extractSuccess', () => {
  test.for([
    ['isError true', true],
    ['isError "true"', 'true'],
    ['isError 1', 1],
    ['isError {}', {}],
  ] as const)('%s (truthy) → null, on both paths', ([, isError]) => {
    expect(extractSuccess({ isError, structuredContent: data })).toBeNull();
    expect(extractSuccess({ isError, content: [text(JSON.stringify(data))] })).toBeNull();
  });

  test.for([
    ['false', false],
    ['0', 0],
    ['""', ''],
    ['null', null],
  ] as const)('isError %s (falsy) → extraction proceeds', ([, isError]) => {
    expect(extractSuccess({ isError, structuredContent: data })).toBe(data);
  });

  test('structuredContent object is returned as is (same object, not a copy)', () => {
    const result = { structuredContent: data, content: [text('{"status":"other"}')] };
    expect(extractSuccess(result)).toBe(data);
    expect(locateSuccess(result)).toEqual({ path: 'structuredContent', pointer: '/structuredContent', data });
  });

  test('adcp_error-only structuredContent → null without looking at the text', () => {
    expect(extractSuccess({ structuredContent: { adcp_error: { code: 'X' } }, content: [text(JSON.stringify(data))] })).toBeNull();
  });

  test('adcp_error with a sibling key is data', () => {
    const sc = { adcp_error: { code: 'X' }, status: 'completed' };
    expect(extractSuccess({ structuredContent: sc })).toBe(sc);
  });

  test.for([
    ['array', [data]],
    ['null', null],
    ['string', JSON.stringify(data)],
    ['number', 7],
  ] as const)('structuredContent %s → the text fallback decides', ([, sc]) => {
    expect(locateSuccess({ structuredContent: sc, content: [text('plain'), text(JSON.stringify(data))] })).toEqual({
      path: 'text_fallback',
      pointer: '/content/1/text',
      index: 1,
      data,
    });
  });

  test('text fallback skips non-text items, non-JSON, arrays, scalars, adcp_error-only, empty text', () => {
    const result = {
      content: [
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
        null,
        'text',
        text(''),
        text('not json {'),
        text('[1,2]'),
        text('42'),
        text('null'),
        text('"s"'),
        text('{"adcp_error":{"code":"X"}}'),
        text(['{"a":1}']), // not a string: never coerced
        text(JSON.stringify(data)),
        text('{"second":true}'),
      ],
    };
    expect(locateSuccess(result)).toMatchObject({ path: 'text_fallback', index: 11, pointer: '/content/11/text', data });
  });

  test('no content, content not an array, non-object results → null', () => {
    for (const r of [{}, { content: text('{}') }, null, undefined, 'x', 5, [], [{ structuredContent: data }]]) {
      expect(extractSuccess(r)).toBeNull();
    }
  });

  test('the 1 MB limit is UTF-16 units, applied before parsing', () => {
    const wrap = (body: string) => ({ content: [text(`{"a":"${body}"}`)] });
    const fill = TEXT_LIMIT - 8;
    expect(extractSuccess(wrap('x'.repeat(fill)))).toEqual({ a: 'x'.repeat(fill) });
    expect(extractSuccess(wrap('x'.repeat(fill + 1)))).toBeNull();
    // 2 UTF-8 bytes per char, 1 UTF-16 unit: the spec's code extracts it
    const multibyte = wrap('é'.repeat(fill));
    expect(extractSuccess(multibyte)).not.toBeNull();
    const size = textSize((multibyte.content[0] as { text: string }).text);
    expect(size).toEqual({ utf16Units: TEXT_LIMIT, utf8Bytes: 8 + 2 * fill, overLimitUtf8: true, overLimitUtf16: false });
  });

  test('__proto__ in text JSON is an own data key of the extracted object', () => {
    const got = extractSuccess({ content: [text('{"__proto__":{"isAdmin":true},"ok":1}')] });
    expect(got).not.toBeNull();
    expect(Object.keys(got!)).toEqual(['__proto__', 'ok']);
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
  });

  test('inherited properties are not read as envelope fields', () => {
    const inherited = Object.create({ isError: true, structuredContent: { x: 1 } }) as object;
    expect(extractSuccess(inherited)).toBeNull(); // nothing own: no structuredContent, no content
    expect(extractSuccess(Object.assign(Object.create({ isError: true }) as object, { structuredContent: data }))).toBe(data);
  });
});

describe('helpers', () => {
  test('utf8Bytes and textSize', () => {
    expect(utf8Bytes('aé😀')).toBe(1 + 2 + 4);
    expect(textSize('aé😀')).toEqual({ utf16Units: 4, utf8Bytes: 7, overLimitUtf8: false, overLimitUtf16: false });
  });

  test('isAdcpErrorOnly', () => {
    expect(isAdcpErrorOnly({ adcp_error: {} })).toBe(true);
    expect(isAdcpErrorOnly({ adcp_error: null })).toBe(true);
    expect(isAdcpErrorOnly({ adcp_error: {}, status: 'x' })).toBe(false);
    expect(isAdcpErrorOnly([{ adcp_error: {} }])).toBe(false);
    expect(isAdcpErrorOnly(null)).toBe(false);
    expect(isAdcpErrorOnly(Object.create({ adcp_error: {} }))).toBe(false);
  });
});
