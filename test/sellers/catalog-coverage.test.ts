// The fault list as data: every check id of RULES.md §2 (plus the harness-added transport.call) is
// tripped by at least one fault, every tripped id exists, and every fault module is loaded with its
// behaviour, named after its file.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { defineFault, faultModuleFiles, faults, loadFaults, namedIds, trippedIds, tripsAt } from '../../sellers/faults.ts';
import { projectRoot, sharedDir } from './adcp-schemas.ts';

const rulesFile = path.join(sharedDir, 'RULES.md');
const rulesPresent = existsSync(rulesFile);

/** Check ids from the catalog table of RULES.md §2 (first column, backticked). */
function ruleIds(): string[] {
  // The catalog table only: up to the next heading (the behaviour-across-calls table that follows is
  // not part of the per-call catalog the faults prove).
  const section = (readFileSync(rulesFile, 'utf8').split(/^## 2\./m)[1] ?? '').split(/^#{2,3} /m)[0] ?? '';
  return [...section.matchAll(/^\|\s*`([a-z]+\.[a-z0-9-]+)`\s*\|/gm)].map((m) => m[1]!);
}

/** Check ids of the business-rules table ("Behaviour across calls"), proven by faults as well. */
function businessRuleIds(): string[] {
  const section = (readFileSync(rulesFile, 'utf8').split(/^### Behaviour across calls/m)[1] ?? '').split(/^#{2,3} /m)[0] ?? '';
  return [...section.matchAll(/^\|\s*`([a-z]+\.[a-z0-9-]+)`\s*\|/gm)].map((m) => m[1]!);
}

/** Check ids of the "AdCP 3.1 on the wire" table, proven by faults as well. */
function wireRuleIds(): string[] {
  const section = (readFileSync(rulesFile, 'utf8').split(/^### AdCP 3\.1 on the wire/m)[1] ?? '').split(/^#{2,3} /m)[0] ?? '';
  return [...section.matchAll(/^\|\s*`([a-z]+\.[a-z0-9-]+)`/gm)].map((m) => m[1]!);
}

/** Check ids of "The task lifecycle" table (async tasks, polling, webhooks), proven by faults as well. */
function taskRuleIds(): string[] {
  const section = (readFileSync(rulesFile, 'utf8').split(/^### The task lifecycle/m)[1] ?? '').split(/^#{2,3} /m)[0] ?? '';
  return [...section.matchAll(/^\|\s*`([a-z-]+\.[a-z0-9-]+)`/gm)].map((m) => m[1]!);
}

/** Check ids of the "State in the sandbox" table (sandbox flows), proven by faults as well. */
function stateRuleIds(): string[] {
  const section = (readFileSync(rulesFile, 'utf8').split(/^### State in the sandbox/m)[1] ?? '').split(/^#{2,3} /m)[0] ?? '';
  return [...section.matchAll(/^\|\s*`([a-z-]+\.[a-z0-9-]+)`/gm)].map((m) => m[1]!);
}

// Ids this project added beyond the catalog document (each a check module; planners are asked to list them there).
const HARNESS_IDS = ['transport.call', 'transport.jsonrpc'];
// The catalog's own id shape (harness/checks/check.ts): an area, hyphenated or not, then a slug.
const ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*$/;

describe('the fault list', () => {
  test('names are unique kebab-case, descriptions one line, each trips well-formed ids at some AdCP version', () => {
    const names = faults.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of faults) {
      expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.description.length).toBeGreaterThan(10);
      expect(f.description).not.toContain('\n');
      expect(trippedIds(f).length, `${f.name} trips nothing at any AdCP version`).toBeGreaterThan(0);
      for (const id of namedIds(f)) expect(id).toMatch(ID);
      for (const status of Object.values(f.trips)) expect(['fail', 'warn']).toContain(status);
      for (const [version, overlay] of Object.entries(f.tripsByAdcpVersion ?? {})) {
        expect(version).toMatch(/^\d+\.\d+$/);
        for (const status of Object.values(overlay)) expect(['fail', 'warn', 'pass']).toContain(status);
      }
    }
  });

  test('every fault module is loaded, named after its file, with a behaviour that hooks something', () => {
    expect(faultModuleFiles().map((m) => m.name)).toEqual(faults.map((f) => f.name));
    for (const f of faults) expect(Object.keys(f.behaviour).length, f.name).toBeGreaterThan(0);
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
    const tripped = new Set(faults.flatMap(trippedIds));
    expect([...ids, ...HARNESS_IDS].filter((id) => !tripped.has(id))).toEqual([]);
  });

  test.skipIf(!rulesPresent)('faults trip only ids of RULES.md §2 (its tables) or transport.call (../shared present)', () => {
    const known = new Set([...ruleIds(), ...businessRuleIds(), ...wireRuleIds(), ...stateRuleIds(), ...taskRuleIds(), ...HARNESS_IDS]);
    const all = faults.flatMap(namedIds);
    expect(all.filter((id) => !known.has(id))).toEqual([]);
  });

  test.skipIf(rulesPresent)('RULES.md coverage skipped: ../shared is absent', () => {
    expect(rulesPresent).toBe(false);
  });
});

describe('the fault loader', () => {
  const kit = pathToFileURL(path.join(projectRoot, 'sellers', 'faults', '_fault.ts')).href;
  const module = (name: string): string =>
    `import { defineFault } from '${kit}';\n` +
    `export default defineFault({ name: '${name}', description: 'a fixture fault', trips: { 'envelope.flat': 'fail' }, behaviour: {} });\n`;

  function withDir(files: Record<string, string>, run: (dir: string) => Promise<void>): Promise<void> {
    const dir = mkdtempSync(path.join(tmpdir(), 'adcp-faults-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    return run(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
  }

  test('loads <name>.ts modules and skips _helpers and other extensions', () =>
    withDir({ 'one-fault.ts': module('one-fault'), '_helper.ts': 'export const x = 1;\n', 'notes.md': '#\n' }, async (dir) => {
      expect((await loadFaults(dir, '.ts')).map((f) => f.name)).toEqual(['one-fault']);
      expect((await loadFaults(dir, '.ts', ['one-fault'])).map((f) => f.name)).toEqual(['one-fault']);
      await expect(loadFaults(dir, '.ts', ['_helper'])).rejects.toThrow(/unknown fault '_helper'/);
    }));

  test('refuses a module whose fault name is not its file name', () =>
    withDir({ 'file-name.ts': module('other-name') }, async (dir) => {
      await expect(loadFaults(dir, '.ts')).rejects.toThrow(/defines fault 'other-name', but its file says 'file-name'/);
    }));

  test('defineFault refuses a status that is neither fail nor warn, and a fault that trips nothing at any version', () => {
    const base = { name: 'x', description: 'a fixture fault', behaviour: {} };
    expect(() => defineFault({ ...base, trips: { 'envelope.flat': 'error' as 'fail' } })).toThrow(/must be fail \| warn/);
    expect(() => defineFault({ ...base, trips: {} })).toThrow(/trips names no check id/);
    const onlyAt31 = (status: 'fail' | 'pass') => ({ ...base, trips: {}, tripsByAdcpVersion: { '3.1': { 'envelope.flat': status } } });
    expect(() => defineFault(onlyAt31('pass'))).toThrow(/trips names no check id/);
    expect(defineFault(onlyAt31('fail')).name).toBe('x');
    const badOverlay = {
      ...base,
      trips: { 'envelope.flat': 'fail' as const },
      tripsByAdcpVersion: { '3.1': { 'envelope.flat': 'x' as 'pass' } },
    };
    expect(() => defineFault(badOverlay)).toThrow(/must be fail \| warn \| pass/);
  });

  test('tripsAt overlays the entries of every release at or below the version asked; pass removes an id', () => {
    const f = defineFault({
      name: 'x',
      description: 'a fixture fault',
      trips: { 'envelope.status': 'warn', 'envelope.flat': 'fail' },
      tripsByAdcpVersion: { '3.1': { 'envelope.status': 'fail', 'envelope.flat': 'pass' }, '3.2': { 'error.code': 'warn' } },
      behaviour: {},
    });
    expect(tripsAt(f)).toEqual({ 'envelope.status': 'warn', 'envelope.flat': 'fail' });
    expect(tripsAt(f, '3.0')).toEqual({ 'envelope.status': 'warn', 'envelope.flat': 'fail' });
    expect(tripsAt(f, '3.1')).toEqual({ 'envelope.status': 'fail' });
    expect(tripsAt(f, '3.2')).toEqual({ 'envelope.status': 'fail', 'error.code': 'warn' });
    expect(tripsAt(f, '4.0')).toEqual({ 'envelope.status': 'fail', 'error.code': 'warn' });
  });
});
