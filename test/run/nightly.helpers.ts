// An inventory of small stdio sellers of our own (test/fixtures/servers/nightly-seller.mjs) whose
// behaviour the test changes between runs through their state files: the same config, sellers changed
// overnight.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ROOT } from './cli.helpers.ts';

export const NIGHTLY_SELLER = join(ROOT, 'test', 'fixtures', 'servers', 'nightly-seller.mjs');

export type SellerMode = 'clean' | 'broken' | 'flaky' | 'down' | 'hostile';

export interface Inventory {
  /** Writes the config naming these agents (in this order), each with its optional `expect`. */
  writeConfig(agents: readonly string[], expect?: Record<string, Record<string, string>>, file?: string): Promise<string>;
  /** Sets how each named seller behaves from its next session on. */
  set(modes: Record<string, SellerMode>): Promise<void>;
}

export function inventory(dir: string): Inventory {
  const state = (name: string) => join(dir, `${name}.state.json`);
  return {
    async writeConfig(agents, expect = {}, file = join(dir, 'sellers.yaml')) {
      const doc = {
        agents: agents.map((name) => ({
          name,
          transport: 'stdio',
          command: process.execPath,
          args: [NIGHTLY_SELLER, state(name)],
          timeouts: { connect: 20_000, call: 10_000, agent: 60_000 },
          ...(expect[name] ? { expect: expect[name] } : {}),
        })),
      };
      await writeFile(file, stringify(doc));
      return file;
    },
    async set(modes) {
      for (const [name, mode] of Object.entries(modes)) await writeFile(state(name), JSON.stringify({ mode }));
    },
  };
}

/** report.json against its JSON Schema (harness/report/report.schema.json); the errors when it does not validate. */
export function reportSchemaErrors(report: unknown): string | null {
  const validate = (reportValidator ??= compileReportSchema());
  return validate(report) ? null : JSON.stringify(validate.errors, null, 2);
}
// Compiled once per thread (~0.1 CPU-s each time; the suite validates ~25 reports).
let reportValidator: ValidateFunction | undefined;
function compileReportSchema(): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormatsModule.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(join(ROOT, 'harness', 'report', 'report.schema.json'), 'utf8')) as object);
}
