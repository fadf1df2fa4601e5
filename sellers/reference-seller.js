#!/usr/bin/env node
// The embedded reference seller, runnable without a build step: tsx registers its ESM loader, then
// the TypeScript entry loads. Usage: see sellers/reference/options.ts (or run with --help-less args).
import { register } from 'tsx/esm/api';

register();
await import('./reference/main.ts');
