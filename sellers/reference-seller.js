#!/usr/bin/env node
// The embedded reference seller. It runs the compiled build (dist/sellers/reference/main.js, made by
// `npm ci`); only when dist is missing or older than the sources (a development checkout) does it fall
// back to the TypeScript sources through tsx (bin/entry.js decides). Usage: sellers/reference/options.ts.
import { importEntry } from '../bin/entry.js';

// The bundled build when the build made it (dist/sellers-bundle/, scripts/build.mjs): it starts in about
// two thirds of the CPU time.
await importEntry('sellers/reference/main', 'sellers-bundle/reference/main');
