#!/usr/bin/env node
// The embedded reference seller. It runs the compiled build (dist/sellers/reference/main.js, made by
// `npm ci`); only when dist is missing or older than the sources (a development checkout) does it fall
// back to the TypeScript sources through tsx (bin/entry.js decides). Usage: sellers/reference/options.ts.
import { importEntry } from '../bin/entry.js';

await importEntry('sellers/reference/main');
