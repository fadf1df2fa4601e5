// Discovering and importing fault modules: every `<name>.ts` in this folder (`.js` in a compiled build)
// not starting with `_`. sellers/faults.ts loads them all; the seller imports only the ones it runs
// with (start-up time matters: tests start many sellers).
import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Fault } from './_fault.ts';

// `../faults/`, not `.`: this code also runs from a chunk of the bundled seller (dist/sellers-bundle/chunks/,
// scripts/build.mjs), whose fault modules sit in the sibling folder faults/, as they do here.
const DIR = fileURLToPath(new URL('../faults/', import.meta.url));
// .ts when run from source (tsx, vitest), .js when run from a compiled build.
const EXT = extname(fileURLToPath(import.meta.url));

/**
 * Where a program built with every fault module inside it lists them, by name: the seller's V8 startup
 * snapshot (scripts/seller-snapshot.mjs), which cannot import modules by path. They stand for this folder.
 */
export const BUILT_IN_FAULTS = Symbol.for('adcp-conformance.built-in-faults');
function builtIn(dir: string): ReadonlyMap<string, Fault> | undefined {
  return dir === DIR ? ((globalThis as Record<symbol, unknown>)[BUILT_IN_FAULTS] as ReadonlyMap<string, Fault> | undefined) : undefined;
}

/** The fault module files in `dir`, by name, sorted. */
export function faultModuleFiles(dir: string = DIR, ext: string = EXT): Array<{ name: string; file: string }> {
  const built = builtIn(dir);
  if (built) return [...built.keys()].sort().map((name) => ({ name, file: join(dir, `${name}${ext}`) }));
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext) && !f.endsWith(`.d${ext}`) && !f.startsWith('_') && !f.startsWith('.'))
    .sort()
    .map((f) => ({ name: f.slice(0, -ext.length), file: join(dir, f) }));
}

/**
 * Import the fault modules of `dir` — all, or only those named in `only` (in that order; an unknown
 * name throws) — and check that each default-exports the fault its file names.
 */
export async function loadFaults(dir: string = DIR, ext: string = EXT, only?: readonly string[]): Promise<readonly Fault[]> {
  const all = faultModuleFiles(dir, ext);
  const files = only
    ? only.map((name) => {
        const hit = all.find((m) => m.name === name);
        if (!hit) throw new Error(`unknown fault '${name}'`);
        return hit;
      })
    : all;
  const built = builtIn(dir);
  const modules = await Promise.all(
    files.map(({ name, file }) =>
      built ? { default: built.get(name) } : (import(pathToFileURL(file).href) as Promise<{ default?: Fault }>),
    ),
  );
  const seen = new Set<string>();
  return Object.freeze(
    files.map(({ name, file }, i) => {
      const fault = modules[i]!.default;
      if (!fault || typeof fault.behaviour !== 'object') throw new Error(`${file}: a fault module default-exports defineFault({...})`);
      if (fault.name !== name) throw new Error(`${file}: defines fault '${fault.name}', but its file says '${name}'`);
      if (seen.has(fault.name)) throw new Error(`${file}: fault '${fault.name}' is loaded twice`);
      seen.add(fault.name);
      return fault;
    }),
  );
}
