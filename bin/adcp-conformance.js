#!/usr/bin/env node
// The CLI. It runs the compiled build (dist/, made by `npm ci`); only when dist is missing or older than
// the sources (a development checkout) does it fall back to the TypeScript sources through tsx — see
// bin/entry.js for why and how that is decided.
import { importEntry } from './entry.js';

await importEntry('harness/cli');
