// The fault list as data: every check id of RULES.md §2 (plus the harness-added transport.call) is
// tripped by at least one fault, every tripped id exists, and behaviours match the list one to one.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { faults } from '../../sellers/faults.ts';
import { behaviours } from '../../sellers/reference/fault-behaviours.ts';
import { sharedDir } from './adcp-schemas.ts';

const rulesFile = path.join(sharedDir, 'RULES.md');
const rulesPresent = existsSync(rulesFile);

/** Check ids from the catalog table of RULES.md §2 (first column, backticked). */
function ruleIds(): string[] {
  const section = readFileSync(rulesFile, 'utf8').split(/^## 2\./m)[1] ?? '';
  return [...section.matchAll(/^\|\s*`([a-z]+\.[a-z0-9-]+)`\s*\|/gm)].map((m) => m[1]!);
}

const HARNESS_IDS = ['transport.call'];
const ID = /^[a-z]+\.[a-z0-9]+(-[a-z0-9]+)*$/;

describe('the fault list', () => {
  test('names are unique kebab-case, descriptions one line, trips non-empty well-formed ids', () => {
    const names = faults.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of faults) {
      expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.description.length).toBeGreaterThan(10);
      expect(f.description).not.toContain('\n');
      expect(f.trips.length).toBeGreaterThan(0);
      for (const id of [...f.trips, ...Object.values(f.tripsByAdcpVersion ?? {}).flat()]) expect(id).toMatch(ID);
    }
  });

  test('behaviours and faults name the same set', () => {
    expect(Object.keys(behaviours).sort()).toEqual(faults.map((f) => f.name).sort());
  });

  test('transport-only faults name a real transport; agent flags are booleans', () => {
    for (const f of faults) {
      for (const t of f.transports ?? []) expect(['stdio', 'http']).toContain(t);
      for (const v of Object.values(f.agent ?? {})) expect(typeof v).toBe('boolean');
    }
  });

  test.skipIf(!rulesPresent)('every RULES.md §2 id, plus transport.call, is tripped by some fault (../shared present)', () => {
    const ids = ruleIds();
    expect(ids.length).toBeGreaterThanOrEqual(30);
    const tripped = new Set(faults.flatMap((f) => f.trips));
    expect([...ids, ...HARNESS_IDS].filter((id) => !tripped.has(id))).toEqual([]);
  });

  test.skipIf(!rulesPresent)('faults trip only ids of RULES.md §2 or transport.call (../shared present)', () => {
    const known = new Set([...ruleIds(), ...HARNESS_IDS]);
    const all = faults.flatMap((f) => [...f.trips, ...Object.values(f.tripsByAdcpVersion ?? {}).flat()]);
    expect(all.filter((id) => !known.has(id))).toEqual([]);
  });

  test.skipIf(rulesPresent)('RULES.md coverage skipped: ../shared is absent', () => {
    expect(rulesPresent).toBe(false);
  });
});
