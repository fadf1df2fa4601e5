#!/usr/bin/env node
// The CLI. It runs the compiled build (dist/, made by `npm ci` and shipped in the package); only when dist
// is missing or older than the sources (a development checkout) does it fall back to the TypeScript
// sources through tsx — see bin/entry.js for why and how that is decided.
import { importEntry, ROOT } from './entry.js';

// Relative paths on the command line mean the user's directory, which is not the working directory when
// npm runs the CLI as one of this package's scripts (harness/run/invocation-dir.ts).
const { invocationDir } = await importEntry('harness/run/invocation-dir');
const dir = invocationDir(process.cwd(), process.env, ROOT);
if (dir !== process.cwd()) {
  try {
    process.chdir(dir);
  } catch {
    // INIT_CWD gone meanwhile: the package root is the next best thing.
  }
}
// The bundled build when the build made it (dist/cli-bundle/, scripts/build.mjs): a run starts on about
// half the module loading.
await importEntry('harness/cli', 'cli-bundle/cli');
