// One safe-JSON module: harness/json.ts is where seller JSON is tested for being an object. A second
// `isRecord` elsewhere drifts from it (arrays, null, own properties), so none is defined outside it.
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, tsFiles } from './source-files.helpers.ts';

/** Declarations of an object test: by its usual names, or as a predicate from `unknown` to a record type. */
const OBJECT_TEST = [
  /\b(?:function|const|let)\s+(?:isObject|isRecord|isPlainObject|isJsonObject)\b/,
  /(?:\bfunction\s+\w+\s*|\b(?:const|let)\s+\w+\s*=\s*)\(\s*\w+\s*:\s*unknown\s*\)\s*:\s*\w+\s+is\s+(?:Record<string,\s*unknown>|JsonObject\b)/,
];

const declaresObjectTest = (src: string): boolean => OBJECT_TEST.some((re) => re.test(src));

describe('the safe-JSON helpers', () => {
  test('no module under harness/ but json.ts defines its own object test', () => {
    const offenders = [...tsFiles(join(ROOT, 'harness'))]
      .map((f) => relative(ROOT, f).split(sep).join('/'))
      .filter((f) => f !== 'harness/json.ts' && declaresObjectTest(readFileSync(join(ROOT, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  test('the guard sees the usual names and renamed predicates, not callers', () => {
    expect(declaresObjectTest(readFileSync(join(ROOT, 'harness', 'json.ts'), 'utf8'))).toBe(true);
    expect(declaresObjectTest(`const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object';`)).toBe(true);
    expect(declaresObjectTest(`function plain(x: unknown): x is JsonObject {`)).toBe(true);
    expect(declaresObjectTest(`const dict = (x: unknown): x is Record<string, unknown> => !!x;`)).toBe(true);
    expect(declaresObjectTest(`if (isObject(doc) && isRecord(x)) return own(doc, 'trees');`)).toBe(false);
    expect(declaresObjectTest(`texts.filter((t): t is { rel: string } => t.text !== undefined)`)).toBe(false);
  });
});
