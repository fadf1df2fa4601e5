// The check catalog, built from the check modules themselves: every file in an area folder
// (harness/checks/<area>/<slug>.ts) default-exports one `defineCheck(...)` whose id is `<area>.<slug>`.
// Adding a check is adding one file; there is no list of ids to edit. Files starting with `_` are the
// area's shared helpers. Where the modules are, their order, and the ids alone: catalog-files.ts.
import { pathToFileURL } from 'node:url';
import type { Check, Level, SeverityRule } from './check.ts';
import { CHECK_EXT, CHECKS_DIR, checkModuleFiles } from './catalog-files.ts';
import { builtCheckModules } from './catalog-modules.ts';

export { catalogIds, checkModuleFiles } from './catalog-files.ts';

/**
 * Import every check module and check that each default-exports the check its path names. The files on
 * disk decide which modules there are; the build's static list (catalog-modules.ts) only spares importing
 * one by its path.
 */
export async function loadCatalog(root: string = CHECKS_DIR, ext: string = CHECK_EXT): Promise<readonly Check[]> {
  const checks: Check[] = [];
  const built = root === CHECKS_DIR ? builtCheckModules : null;
  for (const { area, slug, file } of checkModuleFiles(root, ext)) {
    const mod = (built?.get(`${area}/${slug}`) ?? (await import(pathToFileURL(file).href))) as { default?: Check };
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
