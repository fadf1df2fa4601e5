import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { catalog } from '../../harness/checks/catalog.ts';
import { runCheckVector } from '../../harness/checks/vector-cases.ts';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'vectors');
type VectorDoc = {
  version: number;
  description: string;
  vectors: Array<{ id: string; expected_outcomes: Record<string, string> }>;
};
const read = (file: string): VectorDoc => JSON.parse(readFileSync(file, 'utf8')) as VectorDoc;
// The check vectors: the envelope file, and one file per area under vectors/checks/ (state rules and later areas).
const areaFiles = existsSync(path.join(dir, 'checks'))
  ? readdirSync(path.join(dir, 'checks'))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => path.join(dir, 'checks', f))
  : [];
const doc = read(path.join(dir, 'envelope-checks.json'));
const areas = areaFiles.map((f) => ({ file: path.relative(dir, f), doc: read(f) }));
const allVectors = [...doc.vectors, ...areas.flatMap((a) => a.doc.vectors)];

describe('check vectors (vectors/envelope-checks.json, vectors/checks/*.json)', () => {
  test('is version 1 with at least 40 uniquely named vectors', () => {
    expect(doc.version).toBe(1);
    expect(doc.vectors.length).toBeGreaterThanOrEqual(40);
    const ids = allVectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.for(areas.map((a) => [a.file, a.doc] as const))('%s is version 1 with uniquely named vectors', ([, area]) => {
    expect(area.version).toBe(1);
    expect(area.vectors.length).toBeGreaterThan(0);
  });

  test.for(allVectors.map((v) => [v.id, v] as const))('%s', ([, vector]) => {
    const r = runCheckVector(vector);
    expect(r.diff).toBe('');
    expect(r.ok).toBe(true);
  });

  test('every catalog id has a positive and a negative vector', () => {
    const seen = new Map<string, Set<string>>();
    for (const v of allVectors) for (const [id, s] of Object.entries(v.expected_outcomes)) seen.set(id, (seen.get(id) ?? new Set()).add(s));
    const uncovered = catalog
      .map((c) => c.id)
      .filter((id) => {
        const s = seen.get(id) ?? new Set();
        return !s.has('pass') || !(s.has('fail') || s.has('warn'));
      });
    expect(uncovered).toEqual([]);
  });
});

describe('runCheckVector', () => {
  const base = { id: 'v', exchange: { result: { content: [{ type: 'text', text: 'plain' }] }, protocolVersion: '2025-03-26' } };
  test('reports a wrong expectation with the outcome message', () => {
    const r = runCheckVector({ ...base, expected_outcomes: { 'envelope.extractable': 'pass' } });
    expect(r.ok).toBe(false);
    expect(r.diff).toMatch(/envelope\.extractable: expected pass, got fail \(at \/result/);
  });
  test('rejects unknown ids, bad statuses and empty expectations', () => {
    expect(runCheckVector({ ...base, expected_outcomes: { 'envelope.nope': 'pass' } }).diff).toMatch(/unknown check id/);
    expect(runCheckVector({ ...base, expected_outcomes: { 'envelope.flat': 'ok' } }).diff).toMatch(/not one of/);
    expect(runCheckVector({ ...base, expected_outcomes: {} }).ok).toBe(false);
    expect(runCheckVector(null).ok).toBe(false);
  });
  test('hostile vector values never crash it', () => {
    const hostile = JSON.parse(
      '{"id":"h","capture":{"__proto__":{"production":true},"agent":{"__proto__":{"x":1}}},"exchange":{"__proto__":{"intent":"invalid"},"result":{"__proto__":{}}},"expected_outcomes":{"capabilities.test-controller":"not-applicable","error.validation":"not-applicable"}}',
    ) as unknown;
    expect(runCheckVector(hostile)).toEqual({ ok: true, diff: '' });
    expect(({} as Record<string, unknown>).production).toBeUndefined();
  });
});
