// The config schema's validators as the build writes them (Ajv standalone code, loaded by a compiled run
// instead of compiling the schema: harness/config/validate.ts) against the schema compiled at run time:
// the same verdict and the same errors, field for field, for the shipped examples and for broken configs
// of every kind of rule; and a compiled run reads a broken config with the build's validators.
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { configValidatorsSource, PRECOMPILED_FILE, SCHEMA_PATH } from '../../harness/config/validate.ts';
import { ROOT, runCli, tempDirs } from '../run/cli.helpers.ts';

const tmp = tempDirs();
const schemaDoc = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $id: string; definitions: Record<string, unknown> };

/** The generated CommonJS module, evaluated with this project's require (its Ajv runtime helpers). */
async function standalone(): Promise<Record<string, ValidateFunction>> {
  const module = { exports: {} as Record<string, ValidateFunction> };
  new Function('module', 'exports', 'require', await configValidatorsSource())(module, module.exports, createRequire(import.meta.url));
  return module.exports;
}

/** The schema as validate.ts compiles it from the sources. */
function runtime(): Ajv {
  const ajv = new Ajv({ allErrors: false, verbose: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
  ajv.addVocabulary(['x-expected']);
  ajv.addSchema(schemaDoc);
  return ajv;
}

const agent = { name: 'a', transport: 'http', url: 'http://127.0.0.1:1/mcp' };
const configs: unknown[] = [
  JSON.parse(readFileSync(join(ROOT, 'config', 'example.json'), 'utf8')),
  parseYaml(readFileSync(join(ROOT, 'config', 'example.yaml'), 'utf8')),
  {},
  [],
  { agents: [] },
  { agents: [{ ...agent, url: 'ftp://x' }] },
  { agents: [{ name: 'a', transport: 'http' }] },
  { agents: [{ ...agent, command: 'node' }] },
  { agents: [{ name: 'a', transport: 'stdio', command: 'node', url: 'http://x' }] },
  { agents: [{ ...agent, timeout: 5 }] },
  { agents: [{ ...agent, timeouts: { call: 0 } }] },
  { agents: [{ ...agent, probes: [{ tool: 'get_products', arguments: {}, intent: 'maybe' }] }] },
  { agents: [{ ...agent, headers: { 'bad name': 'x' } }] },
  { agents: [{ ...agent, maxBytes: 12 }] },
  { agents: [{ ...agent, account: { account_id: 'acc', brand: { domain: 'x.example' } } }] },
  { agents: [{ ...agent, webhookKeys: { keys: [{}] } }] },
  { agents: [{ ...agent, transport: 'ftp' }] },
  { agents: [{ name: 5 }] },
  { agents: [agent], defaults: { timeouts: { agent: -1 } } },
  { agents: [agent], extra: true },
];

describe('the build’s config validators are the schema’s', () => {
  test('the same verdict and errors for the shipped examples and broken configs of every kind', async () => {
    const pre = await standalone();
    const validate = runtime().getSchema(schemaDoc.$id)!;
    const verdicts = configs.map((doc) => {
      const [a, b] = [validate(doc), pre['config']!(doc)];
      expect(JSON.stringify(pre['config']!.errors ?? null), JSON.stringify(doc)).toBe(JSON.stringify(validate.errors ?? null));
      expect(b).toBe(a);
      return a;
    });
    // The corpus holds both: the examples pass, the broken ones fail.
    expect(verdicts.slice(0, 2)).toEqual([true, true]);
    expect(verdicts.filter((v) => !v).length).toBe(configs.length - 2);
  });

  test('each definition (what a command-line flag is checked against) as its own validator', async () => {
    const pre = await standalone();
    const ajv = runtime();
    const values = [
      { account_id: 'acc_1' },
      { account_id: '' },
      { brand: { domain: 'x.example' }, operator: 'o', sandbox: true },
      {},
      'x',
      null,
    ];
    for (const name of Object.keys(schemaDoc.definitions)) {
      const validate = ajv.getSchema(`${schemaDoc.$id}#/definitions/${name}`)!;
      const own = pre[`d_${name}`];
      expect(own, name).toBeTypeOf('function');
      for (const v of values) {
        expect(own!(v), `${name} ${JSON.stringify(v)}`).toBe(validate(v));
        expect(JSON.stringify(own!.errors ?? null)).toBe(JSON.stringify(validate.errors ?? null));
      }
    }
  });

  test('a compiled run reads a broken config with them, and says what is wrong', async () => {
    const built = join(ROOT, 'dist', 'harness', 'config');
    expect(existsSync(join(built, PRECOMPILED_FILE))).toBe(true);
    const compiled = (await import(pathToFileURL(join(built, 'validate.js')).href)) as typeof import('../../harness/config/validate.ts');
    expect(compiled.configValidatorsOrigin()).toBe('precompiled');
    const dir = await tmp('config-precompiled');
    const file = join(dir, 'agents.yaml');
    await writeFile(file, 'agents:\n  - name: a\n    transport: http\n    url: http://127.0.0.1:1/mcp\n    timeout: 5\n');
    const r = await runCli(['run', '--config', file, '--out', join(dir, 'out')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}: /agents/0/timeout: 'timeout' is not a known setting (expected one of: name, transport,`);
  });
});
