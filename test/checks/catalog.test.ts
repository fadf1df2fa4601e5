import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { catalog, checkById, HARNESS_ADDED_IDS, severityLabel } from '../../harness/checks/catalog.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const rulesFile = path.resolve(root, '..', 'shared', 'RULES.md');
const hasRules = existsSync(rulesFile);

/** The §2 table of RULES.md: id → severity column (MUST, SHOULD, MUST*). */
function rulesTable(): Map<string, string> {
  const text = readFileSync(rulesFile, 'utf8');
  const section = text.slice(text.indexOf('## 2.'));
  const rows = new Map<string, string>();
  for (const m of section.matchAll(/^\|\s*`([a-z]+\.[a-z0-9-]+)`\s*\|\s*([A-Z*]+)\s*\|/gm)) rows.set(m[1]!, m[2]!);
  return rows;
}

describe('the catalog', () => {
  test('ids are unique kebab-case `area.slug`', () => {
    const ids = catalog.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+\.[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  test('each check has a title, spec text, a severity and a scope; checkById finds it', () => {
    for (const c of catalog) {
      expect(c.title.length, c.id).toBeGreaterThan(10);
      expect(c.spec.length, c.id).toBeGreaterThan(10);
      expect(['MUST', 'SHOULD']).toContain(c.severity);
      expect(['exchange', 'agent']).toContain(c.scope);
      expect(checkById(c.id)).toBe(c);
    }
    expect(checkById('no.such-id')).toBeUndefined();
  });

  test('transport.* checks are live; harness-added ids say so', () => {
    for (const c of catalog.filter((c) => c.id.startsWith('transport.'))) expect(c.live, c.id).toBe(true);
    expect(HARNESS_ADDED_IDS).toEqual(['transport.call']);
    const call = checkById('transport.call')!;
    expect(call).toMatchObject({ severity: 'MUST', scope: 'exchange' });
    expect(call.spec).toMatch(/harness-added/i);
    expect(call.title).toMatch(/harness-added/i);
  });

  test.skipIf(!hasRules)('contains every id of RULES.md §2, in its order, with its severity (skipped: ../shared is absent)', () => {
    const rules = rulesTable();
    expect(rules.size).toBeGreaterThan(30);
    const ours = catalog.map((c) => c.id).filter((id) => !HARNESS_ADDED_IDS.includes(id));
    expect(ours).toEqual([...rules.keys()]);
    for (const [id, sev] of rules) expect(severityLabel(checkById(id)!), id).toBe(sev);
  });
});
