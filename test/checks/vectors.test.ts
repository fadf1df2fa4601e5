import { readdirSync, readFileSync } from 'node:fs';
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
// The check vectors: one file per check area, vectors/checks/<area>.json.
const areas = readdirSync(path.join(dir, 'checks'))
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ file: `checks/${f}`, area: f.slice(0, -'.json'.length), doc: read(path.join(dir, 'checks', f)) }));
const allVectors = areas.flatMap((a) => a.doc.vectors);
// A vector whose ids span areas belongs to the area of its first id.
const areaOf = (v: VectorDoc['vectors'][number]): string => (Object.keys(v.expected_outcomes)[0] ?? '').split('.')[0]!;

describe('check vectors (vectors/checks/<area>.json)', () => {
  test('at least 280 uniquely named vectors', () => {
    expect(allVectors.length).toBeGreaterThanOrEqual(280);
    const ids = allVectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.for(areas.map((a) => [a.file, a] as const))('%s is version 1 and holds only vectors of its own area', ([, a]) => {
    expect(a.doc.version).toBe(1);
    expect(a.doc.vectors.length).toBeGreaterThan(0);
    expect(new Set(catalog.map((c) => c.id.split('.')[0])), `${a.area} is not a check area`).toContain(a.area);
    expect(a.doc.vectors.filter((v) => areaOf(v) !== a.area).map((v) => `${v.id} (${areaOf(v)})`)).toEqual([]);
  });

  test('no check vector lives outside vectors/checks/', () => {
    const stray = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) =>
        (read(path.join(dir, f)).vectors ?? []).filter((v) => Object.hasOwn(v, 'expected_outcomes')).map((v) => `${f}: ${v.id}`),
      );
    expect(stray).toEqual([]);
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
