import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { catalog } from '../../harness/checks/catalog.ts';
import { runCheckVector } from '../../harness/checks/vector-cases.ts';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'vectors', 'envelope-checks.json');
const doc = JSON.parse(readFileSync(file, 'utf8')) as {
  version: number;
  description: string;
  vectors: Array<{ id: string; expected_outcomes: Record<string, string> }>;
};

describe('vectors/envelope-checks.json', () => {
  test('is version 1 with at least 40 uniquely named vectors', () => {
    expect(doc.version).toBe(1);
    expect(doc.vectors.length).toBeGreaterThanOrEqual(40);
    const ids = doc.vectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.for(doc.vectors.map((v) => [v.id, v] as const))('%s', ([, vector]) => {
    const r = runCheckVector(vector);
    expect(r.diff).toBe('');
    expect(r.ok).toBe(true);
  });

  test('every catalog id has a positive and a negative vector', () => {
    const seen = new Map<string, Set<string>>();
    for (const v of doc.vectors)
      for (const [id, s] of Object.entries(v.expected_outcomes)) seen.set(id, (seen.get(id) ?? new Set()).add(s));
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
