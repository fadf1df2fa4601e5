// The harness is built in floors: a module imports its own folder and the floors below it, never one
// above, and no chain of static imports comes back to where it started. harness/run/ is split into rooms
// (judge/, vitest/, dev/) that the rest enters by one door each (index.ts). Walks the real import
// statements of every module under harness/ (static, re-exports and dynamic import()).
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, tsFiles } from './source-files.helpers.ts';

/**
 * Lowest first. Ground: the recorded exchange and the safe-JSON and AdCP-task tables, which every stage
 * reads. extract/ (the spec's client algorithms, pure) sits below capture/, which uses them on live answers.
 */
const FLOORS: ReadonlyArray<readonly string[]> = [
  ['record', 'json.ts', 'adcp-tasks.ts', 'version.ts', 'cache-dir.ts', 'gc.ts'],
  ['config', 'extract', 'sanitize.ts'],
  ['connect', 'schemas', 'webhooks'],
  ['capture'],
  ['checks', 'vectors'],
  ['report', 'storyboards'],
  ['run'],
  ['commands'],
  ['cli.ts'],
];

/** A module's room: its folder under harness/, or its own name for a file at the top. */
const roomOf = (file: string): string => file.split('/')[1]!;

function floorOf(file: string): number {
  const floor = FLOORS.findIndex((rooms) => rooms.includes(roomOf(file)));
  if (floor < 0) throw new Error(`${file}: its room ${roomOf(file)} has no floor in this test`);
  return floor;
}

/**
 * file → the harness modules it imports (paths relative to the project, `/`-separated). `lazy: false`
 * leaves out dynamic import(): a module loaded on first use is evaluated after the graph that asked for
 * it, so it cannot make an evaluation-order cycle (the dev door loads the watch loop, which reaches
 * run/options.ts and so the door again, that way on purpose).
 */
function importGraph({ lazy }: { lazy: boolean }): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const abs of tsFiles(join(ROOT, 'harness'))) {
    const file = relative(ROOT, abs).split(sep).join('/');
    const src = readFileSync(abs, 'utf8');
    const specs = [
      ...[...src.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.[^'"]+)['"]/g)].map((m) => m[1]!),
      ...(lazy ? [...src.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map((m) => m[1]!) : []),
    ];
    const deps = specs
      .map((s) =>
        normalize(join(dirname(file), s))
          .split(sep)
          .join('/'),
      )
      .filter((d) => d.startsWith('harness/'));
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** One import cycle, as the chain of modules, or undefined when there is none. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    state.set(file, 'open');
    path.push(file);
    for (const dep of graph.get(file) ?? []) {
      if (state.get(dep) === 'open') return [...path.slice(path.indexOf(dep)), dep];
      if (!state.has(dep) && graph.has(dep)) {
        const cycle = visit(dep);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of graph.keys()) {
    if (state.has(file)) continue;
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('the floors of harness/', () => {
  const graph = importGraph({ lazy: true });

  test('the walk sees the modules and their imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('harness/capture/capture-agent.ts')).toContain('harness/connect/session.ts');
    expect(graph.get('harness/connect/session.ts')).toContain('harness/connect/opened-transport.ts');
  });

  test('no module imports a floor above its own', () => {
    const upward: string[] = [];
    for (const [file, deps] of graph) {
      for (const dep of deps) if (floorOf(dep) > floorOf(file)) upward.push(`${file} → ${dep}`);
    }
    expect(upward).toEqual([]);
  });

  test('nothing under connect/ or extract/ imports capture/', () => {
    const offenders = [...graph].filter(
      ([file, deps]) => /^harness\/(connect|extract)\//.test(file) && deps.some((d) => d.startsWith('harness/capture/')),
    );
    expect(offenders.map(([file]) => file)).toEqual([]);
  });

  test('no import cycle', () => {
    expect(findCycle(importGraph({ lazy: false }))).toBeUndefined();
  });

  test('the cycle finder finds a cycle (so the test above can fail)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(findCycle(g)).toEqual(['a', 'b', 'c', 'a']);
  });
});

describe('the rooms of harness/run/', () => {
  const graph = importGraph({ lazy: true });
  const ROOMS = ['judge', 'vitest', 'dev'];

  test('outside a room, its modules are reached through its door only', () => {
    const pastTheDoor: string[] = [];
    for (const [file, deps] of graph) {
      for (const dep of deps) {
        const room = ROOMS.find((r) => dep.startsWith(`harness/run/${r}/`));
        if (room && !file.startsWith(`harness/run/${room}/`) && dep !== `harness/run/${room}/index.ts`)
          pastTheDoor.push(`${file} → ${dep}`);
      }
    }
    expect(pastTheDoor).toEqual([]);
  });

  test('no folder of harness/run/ holds more than 13 modules', () => {
    const sizes = ['', ...ROOMS.map((r) => `/${r}`)].map((sub) => {
      const dir = `harness/run${sub}`;
      return [dir, [...graph.keys()].filter((f) => dirname(f) === dir).length] as const;
    });
    for (const [dir, n] of sizes) expect(n, dir).toBeLessThanOrEqual(13);
    expect(sizes.every(([, n]) => n > 0)).toBe(true);
  });

  test('RunOptions stops at the top of run/: no module of a room names it', () => {
    const naming = [...graph.keys()].filter(
      (f) => ROOMS.some((r) => f.startsWith(`harness/run/${r}/`)) && /\bRunOptions\b/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(naming).toEqual([]);
  });

  test('liveRun reads as the steps of a run, in under 80 lines', () => {
    const src = readFileSync(join(ROOT, 'harness', 'run', 'pipeline.ts'), 'utf8');
    const start = src.indexOf('export async function liveRun(');
    const body = src.slice(start, src.indexOf('\n}\n', start) + 2);
    expect(start).toBeGreaterThan(0);
    expect(body.split('\n').length).toBeLessThan(80);
  });
});
