// "Did you mean …?" for a mistyped tool or check id: the closest known name within a typo's distance.
import { describe, expect, test } from 'vitest';
import { distance, nearest } from '../../harness/run/nearest.ts';

describe('nearest', () => {
  const tools = ['get_adcp_capabilities', 'get_products', 'list_creatives', 'list_creative_formats'];
  test('a typo finds its name; case does not count; a far name finds none', () => {
    expect(nearest('get_prodcts', tools)).toBe('get_products');
    expect(nearest('Get_Products', tools)).toBe('get_products');
    expect(nearest('list_creative', tools)).toBe('list_creatives');
    expect(nearest('launch_rocket', tools)).toBeUndefined();
    expect(nearest('x', [])).toBeUndefined();
  });
  test('Levenshtein distance', () => {
    expect(distance('kitten', 'sitting')).toBe(3);
    expect(distance('', 'abc')).toBe(3);
    expect(distance('same', 'same')).toBe(0);
  });
  test('names past 128 characters (a hostile list) are neither suggested nor compared', () => {
    const names = Array.from({ length: 2000 }, (_, i) => `${'x'.repeat(5000)}${i}`);
    expect(nearest('get_products', names)).toBeUndefined();
    expect(nearest(`${'x'.repeat(5000)}1`, names)).toBeUndefined();
    expect(nearest('get_products', [...names, 'get_product'])).toBe('get_product');
  });
});
