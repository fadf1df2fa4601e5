// The check catalog, built from the check modules themselves: every file in an area folder
// (harness/checks/<area>/<slug>.ts) default-exports one `defineCheck(...)` whose id is `<area>.<slug>`.
// Adding a check is adding one file; there is no list of ids to edit. Files starting with `_` are the
// area's shared helpers. Order: the areas below (the order of the catalog in the docs), then any other
// area alphabetically; within an area, by slug.
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Check, Level, SeverityRule } from './check.ts';

const AREA_ORDER = ['transport', 'envelope', 'error', 'schema', 'capabilities'];

const HERE = fileURLToPath(new URL('.', import.meta.url));
// .ts when run from source (tsx, vitest), .js when run from the compiled build.
const EXT = extname(fileURLToPath(import.meta.url));

function areaRank(area: string): number {
  const i = AREA_ORDER.indexOf(area);
  return i === -1 ? AREA_ORDER.length : i;
}

/** The area folders and their check modules, in catalog order. */
export function checkModuleFiles(root: string = HERE, ext: string = EXT): Array<{ area: string; slug: string; file: string }> {
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

/** Import every check module and check that each default-exports the check its path names. */
export async function loadCatalog(root: string = HERE, ext: string = EXT): Promise<readonly Check[]> {
  const checks: Check[] = [];
  for (const { area, slug, file } of checkModuleFiles(root, ext)) {
    const mod = (await import(pathToFileURL(file).href)) as { default?: Check };
    const check = mod.default;
    if (!check || typeof check.judge !== 'function') throw new Error(`${file}: a check module default-exports defineCheck({...})`);
    if (check.id !== `${area}.${slug}`) throw new Error(`${file}: defines '${check.id}', but its path says '${area}.${slug}'`);
    checks.push(check);
  }
  return Object.freeze(checks);
}

export const catalog: readonly Check[] = await loadCatalog();

const byId = new Map(catalog.map((c) => [c.id, c]));

export function checkById(id: string): Check | undefined {
  return byId.get(id);
}

/** Severity as the catalog prints it: MUST, SHOULD, or MUST* when the level depends on a version. */
export function severityLabel(check: Check): 'MUST' | 'SHOULD' | 'MUST*' {
  return typeof check.severity === 'string' && check.condition === undefined ? check.severity : 'MUST*';
}

/** The level in words for a check, with its condition when the requirement depends on a version. */
export function checkSeverityText(check: Check): string {
  const level = severityText(check.severity);
  return check.condition === undefined ? level : `${level}: ${check.condition}`;
}

/** The conditional level in words, for `checks` and the README table (`MUST from MCP 2025-06-18; SHOULD from 2025-03-26; …`). */
export function severityText(rule: SeverityRule): string {
  if (typeof rule === 'string') return rule;
  const [what, steps] = 'byMcpRevision' in rule ? ['MCP', rule.byMcpRevision] : ['AdCP', rule.byAdcpVersion];
  const parts = steps.map((s) => `${s.level} from ${what} ${s.from}`);
  const below = rule.below;
  parts.push(typeof below === 'string' ? `${below} before` : `not checked before (${below.notApplicable})`);
  return parts.join('; ');
}

/** The highest level a rule can reach (what a MUST* counts as in a catalog listing). */
export function topLevel(rule: SeverityRule): Level {
  if (typeof rule === 'string') return rule;
  const steps = 'byMcpRevision' in rule ? rule.byMcpRevision : rule.byAdcpVersion;
  return steps.some((s) => s.level === 'MUST') ? 'MUST' : 'SHOULD';
}
