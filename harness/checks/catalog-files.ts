// Where the check modules are, and so the catalog's ids (id = <area>.<slug>, from the path), without
// importing a check: the main thread needs only the ids (to select checks and to read a config's `expect`
// entries), and loading the ~100 check modules costs it ~0.2 CPU-s at every start. The judge worker loads
// the checks themselves (catalog.ts), and refuses a module whose id disagrees with its path.
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Order: these areas first (the order of the catalog in the docs), then any other area alphabetically;
// within an area, by slug.
const AREA_ORDER = ['transport', 'envelope', 'error', 'schema', 'capabilities'];

/** The folder of the area folders. */
export const CHECKS_DIR = fileURLToPath(new URL('.', import.meta.url));
// .ts when run from source (tsx, vitest), .js when run from the compiled build.
export const CHECK_EXT = extname(fileURLToPath(import.meta.url));

function areaRank(area: string): number {
  const i = AREA_ORDER.indexOf(area);
  return i === -1 ? AREA_ORDER.length : i;
}

/** The area folders and their check modules, in catalog order. */
export function checkModuleFiles(root: string = CHECKS_DIR, ext: string = CHECK_EXT): Array<{ area: string; slug: string; file: string }> {
  const areas = readdirSync(root)
    .filter((name) => !name.startsWith('_') && !name.startsWith('.') && statSync(join(root, name)).isDirectory())
    .sort((a, b) => areaRank(a) - areaRank(b) || a.localeCompare(b));
  const files: Array<{ area: string; slug: string; file: string }> = [];
  for (const area of areas) {
    const slugs = readdirSync(join(root, area))
      .filter((f) => f.endsWith(ext) && !f.endsWith(`.d${ext}`) && !f.startsWith('_'))
      .map((f) => f.slice(0, -ext.length))
      .sort();
    for (const slug of slugs) files.push({ area, slug, file: join(root, area, `${slug}${ext}`) });
  }
  return files;
}

let ids: readonly string[] | undefined;
/** Every check id, in catalog order (the folders are read once per process: every agent judged asks). */
export function catalogIds(): readonly string[] {
  return (ids ??= Object.freeze(checkModuleFiles().map((f) => `${f.area}.${f.slug}`)));
}
