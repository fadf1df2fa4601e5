// vitest globalSetup: dist/ rebuilt first when it is stale. The CLI the tests run (bin/entry.js) runs dist/
// when it is current and the TypeScript sources through tsx otherwise; after any edit of the sources it was
// stale, so every one of the suite's ~180 CLI runs and ~180 seller starts transpiled the sources again
// (measured on 2 cores: the suite 798 s wall and 1,535 CPU-s from the sources, against ~560 s and ~1,050
// CPU-s from dist). The build takes seconds, and it is what CI tests: `npm ci` builds dist before the suite.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export default async function setup(): Promise<void> {
  const entry = (await import(pathToFileURL(path.join(ROOT, 'bin', 'entry.js')).href)) as { distProblem(): string | null };
  const problem = entry.distProblem();
  if (problem === null) return;
  process.stderr.write(`test setup: ${problem}: building\n`);
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Not a test failure: the CLI then runs the sources, as it would without this (only slower).
  if (built.status !== 0)
    process.stderr.write(`test setup: the build failed (exit ${built.status}); the CLI runs the TypeScript sources\n`);
}
