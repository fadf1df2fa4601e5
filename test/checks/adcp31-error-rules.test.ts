// The pure parts of the AdCP 3.1 error and capabilities rules: the vendor-code grammar, the RFC 6901 →
// JSONPath-lite translation of `field`, the error-code vocabulary read from a schema tree, and the
// required-tasks table (its `mutating` flags held to the 3.1.19 manifest in ../shared when present).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { jsonPathLiteForms, pointerSegments, vendorCodeProblem } from '../../harness/checks/error/_codes.ts';
import { REQUIRED_TASKS, requiredTasksFor } from '../../harness/checks/capabilities/_required-tasks.ts';
import { loadErrorVocabulary, vocabularyOf } from '../../harness/schemas/error-codes.ts';
import { dirSchemaSource } from '../../harness/schemas/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tree3119 = path.resolve(root, '..', 'shared', 'adcp', 'schemas', '3.1.19');
const hasTree = existsSync(path.join(tree3119, 'index.json'));

describe('vendor codes: X_{VENDOR}_{CODE} (transport-errors.mdx)', () => {
  test('well-formed codes', () => {
    for (const code of ['X_STREAMHAUS_FLOOR_NOT_MET', 'X_AB_CD', `X_A${'B'.repeat(19)}_C${'D'.repeat(39)}`, 'X_ACME2_A_B_C'])
      expect(vendorCodeProblem(code), code).toBeNull();
  });
  test('malformed codes say why', () => {
    expect(vendorCodeProblem('FLOOR_NOT_MET')).toBe('no X_ prefix');
    expect(vendorCodeProblem('X_STREAMHAUS')).toBe('no _ between {VENDOR} and {CODE}');
    expect(vendorCodeProblem('X_streamhaus_FLOOR')).toMatch(/^\{VENDOR\}/);
    expect(vendorCodeProblem('X_A_FLOOR')).toMatch(/^\{VENDOR\}/); // vendor of one character
    expect(vendorCodeProblem(`X_A${'B'.repeat(20)}_FLOOR`)).toMatch(/^\{VENDOR\}/); // 21 characters
    expect(vendorCodeProblem('X_ACME_floor')).toMatch(/^\{CODE\}/);
    expect(vendorCodeProblem('X_ACME_F')).toMatch(/^\{CODE\}/); // code of one character
    expect(vendorCodeProblem(`X_ACME_F${'O'.repeat(40)}`)).toMatch(/^\{CODE\}/); // 41 characters
  });
});

describe('issues[0].pointer → field (error-handling.mdx)', () => {
  test('RFC 6901 segments, escapes decoded; malformed pointers refused', () => {
    expect(pointerSegments('')).toEqual([]);
    expect(pointerSegments('/packages/0/targeting')).toEqual(['packages', '0', 'targeting']);
    expect(pointerSegments('/a~1b/c~0d/~01')).toEqual(['a/b', 'c~d', '~1']);
    expect(pointerSegments('packages')).toBeNull();
    expect(pointerSegments('/a~2b')).toBeNull();
    expect(pointerSegments('/a~')).toBeNull();
  });
  test("the text's example and index segments", () => {
    expect(jsonPathLiteForms(['packages', '0', 'targeting'])).toEqual(['packages[0].targeting']);
    expect(jsonPathLiteForms(['0'])).toEqual(['[0]']);
    expect(jsonPathLiteForms([])).toEqual(['']);
    expect(jsonPathLiteForms(['budget', 'total'])).toEqual(['budget.total']);
  });
  test('keys that are not identifiers: dotted or bracketed', () => {
    expect(jsonPathLiteForms(['ext', 'a.b'])).toEqual(['ext.a.b', 'ext["a.b"]', "ext['a.b']"]);
  });
  test('a numeric key of an object in the request: [N] and the key forms', () => {
    expect(jsonPathLiteForms(['ext', '7'], (i) => (i === 1 ? false : undefined))).toEqual(['ext[7]', 'ext.7', 'ext["7"]', "ext['7']"]);
    expect(jsonPathLiteForms(['packages', '7'], () => true)).toEqual(['packages[7]']);
  });
  test('bounded for hostile pointers', () => {
    const segments = Array.from({ length: 200 }, (_, i) => `k ${i}`);
    expect(jsonPathLiteForms(segments).length).toBeLessThanOrEqual(81);
  });
});

describe('the error-code vocabulary of a schema tree', () => {
  test('vocabularyOf reads the enum, ignores junk, never throws', () => {
    expect([...(vocabularyOf({ enum: ['A', 1, '', 'B'] }) ?? [])]).toEqual(['A', 'B']);
    expect(vocabularyOf({ enum: 'A' })).toBeUndefined();
    expect(vocabularyOf(null)).toBeUndefined();
    expect(vocabularyOf([])).toBeUndefined();
    expect(vocabularyOf(JSON.parse('{"__proto__":{"enum":["X"]}}'))).toBeUndefined();
  });
  test.skipIf(!hasTree)('the 3.1.19 tree (../shared) gives its 92 standard codes', async () => {
    const tree = await dirSchemaSource(tree3119).openTree('3.1.19');
    const v = await loadErrorVocabulary(tree);
    expect('codes' in v && v.codes.size).toBe(92);
    expect('codes' in v && v.codes.has('VERSION_UNSUPPORTED') && v.codes.has('CREDENTIAL_IN_ARGS')).toBe(true);
  });
  if (!hasTree) test.skip('../shared/adcp/schemas/3.1.19 is absent: the tree vocabulary is not checked', () => {});
});

describe('the required-tasks table (protocol/required-tasks.mdx)', () => {
  test('picks the newest table at or below the release, within the major', () => {
    expect(requiredTasksFor({ major: 3, minor: 1 })?.release).toBe('3.1');
    expect(requiredTasksFor({ major: 3, minor: 2 })?.release).toBe('3.1');
    expect(requiredTasksFor({ major: 3, minor: 0 })?.release).toBe('3.0');
    expect(requiredTasksFor({ major: 2, minor: 5 })).toBeUndefined();
    expect(requiredTasksFor({ major: 4, minor: 0 })).toBeUndefined();
  });
  test('protocol values are those of supported_protocols (snake_case)', () => {
    for (const table of Object.values(REQUIRED_TASKS))
      for (const p of Object.keys(table))
        expect(['media_buy', 'signals', 'creative', 'brand', 'sponsored_intelligence', 'measurement']).toContain(p);
  });
  test.skipIf(!hasTree)('every task is in the 3.1.19 manifest with the same mutating flag', () => {
    const manifest = JSON.parse(readFileSync(path.join(tree3119, 'manifest.json'), 'utf8')) as {
      tools: Record<string, { mutating?: boolean }>;
    };
    for (const row of Object.values(REQUIRED_TASKS['3.1']!))
      for (const t of row.tasks) expect(manifest.tools[t.name]?.mutating, t.name).toBe(t.mutating);
  });
  if (!hasTree) test.skip('../shared/adcp/schemas/3.1.19 is absent: the mutating flags are not checked', () => {});
});
