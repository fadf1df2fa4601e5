#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx registers its ESM loader, then the CLI loads.
import { register } from 'tsx/esm/api';

register();
await import('../harness/cli.ts');
