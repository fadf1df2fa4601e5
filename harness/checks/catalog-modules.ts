// The check modules imported statically, by area/slug — made by the build only: scripts/bundle-cli.mjs writes
// dist/harness/checks/catalog-modules.js with one static `import` per check module, so that the bundled CLI
// (dist/cli-bundle/) holds the checks in its own module graph instead of importing each file by its path
// beside the bundle (a second copy of every module the checks share with the judge). From the sources there
// is no such list: catalog.ts imports each module by its path.
export const builtCheckModules: ReadonlyMap<string, unknown> | null = null;
