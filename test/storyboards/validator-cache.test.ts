// The storyboard runner's validator cache (harness/storyboards/validator-cache.ts): the SDK's own
// validation, in worker threads as the runner has it, gives the same results compiled, stored and
// loaded; and a cached file is loaded only when it is the user's own, unwritable by others and intact.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { sdkSchemaLoader, VALIDATOR_CACHE_SOURCE, validatorCacheDir } from '../../harness/storyboards/validator-cache.ts';
import { key, runAgainst, stdioReference } from './helpers.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'adcp-validator-cache-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

// The SDK's validateRequest / validateResponse over these payloads, in a fresh thread (the SDK keeps its
// compiled validators per thread). Bundled task schemas (cached), a response variant whose schema is
// not bundled (compiled by the SDK, not cached) and a response whose root the SDK relaxes.
const CASES: Array<[tool: string, direction: 'request' | 'response', payload: unknown]> = [
  ['get_products', 'request', {}],
  ['get_products', 'request', { buying_mode: 'brief', brief: 'video inventory' }],
  ['get_products', 'request', { buying_mode: 'brief', brief: 7, filters: { delivery_type: 'sometimes' } }],
  ['get_products', 'response', { products: [] }],
  ['get_products', 'response', { products: [{ product_id: 1, name: ['x'], format_ids: 'none' }] }],
  ['create_media_buy', 'request', {}],
  ['create_media_buy', 'request', { packages: [{ budget: 'lots' }], start_time: 5, brand: {} }],
  ['create_media_buy', 'response', { media_buy_id: 'mb_1', packages: 'all' }],
  ['create_media_buy', 'response', { status: 'submitted', task_id: 7 }],
  ['list_content_standards', 'response', { standards: [], replayed: false }],
  ['list_content_standards', 'response', { standards: 'none' }],
  ['get_adcp_capabilities', 'response', { adcp: { major_versions: ['three'] } }],
];

interface Validated {
  results: unknown[];
  hits: number;
  stores: number;
}

const WORKER = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
${VALIDATOR_CACHE_SOURCE}
const cache = workerData.dir ? installValidatorCache({ loader: workerData.loader, dir: workerData.dir, maxFiles: 300 }) : undefined;
const v = require(require('node:path').join(require('node:path').dirname(workerData.loader), 'schema-validator.js'));
const results = workerData.cases.map(([tool, direction, payload]) => direction === 'request' ? v.validateRequest(tool, payload) : v.validateResponse(tool, payload));
parentPort.postMessage({ results: JSON.parse(JSON.stringify(results)), hits: cache ? cache.hits : 0, stores: cache ? cache.stores : 0 });
`;

function validateInThread(dir: string | undefined): Promise<Validated> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { loader: sdkSchemaLoader(), dir, cases: CASES } });
    worker.once('message', (m: Validated) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('the storyboard runner’s validator cache', () => {
  test('the SDK’s validation gives the same results uncached, compiled and stored, and loaded from the cache', async () => {
    const dir = join(tempDir(), 'validators');
    const plain = await validateInThread(undefined);
    const first = await validateInThread(dir);
    const files = readdirSync(dir).filter((n) => n.endsWith('.cjs'));
    const second = await validateInThread(dir);
    // What is compared is meaningful: some payloads pass, most fail with issues.
    const results = plain.results as Array<{ valid: boolean; issues: unknown[] }>;
    expect(results.filter((r) => r.valid).length).toBeGreaterThanOrEqual(2);
    expect(results.filter((r) => !r.valid && r.issues.length > 0).length).toBeGreaterThanOrEqual(8);
    expect(first.results).toEqual(plain.results);
    expect(second.results).toEqual(plain.results);
    // Bundled request and response schemas of four tasks (six files); the flat async variant is not kept.
    expect(first).toMatchObject({ hits: 0, stores: files.length });
    expect(files.length).toBeGreaterThanOrEqual(6);
    expect(second).toMatchObject({ hits: files.length, stores: 0 });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of files) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
  }, 120_000);

  test('the runner uses it: a storyboard run stores the validators it compiled, the next run loads them', async () => {
    const home = tempDir();
    vi.stubEnv('XDG_CACHE_HOME', home);
    try {
      const dir = validatorCacheDir({ XDG_CACHE_HOME: home });
      const first = await runAgainst(stdioReference(), 'capability_discovery');
      const stored = new Map(readdirSync(dir).map((n) => [n, statSync(join(dir, n)).ino]));
      expect(stored.size).toBeGreaterThanOrEqual(2);
      const second = await runAgainst(stdioReference(), 'capability_discovery');
      // Loaded, not compiled and stored again (a store replaces the file: a new inode).
      expect(new Map(readdirSync(dir).map((n) => [n, statSync(join(dir, n)).ino]))).toEqual(stored);
      const summary = (r: typeof first) => r.run.outcomes.map((o) => `${o.status} ${key(o)}: ${o.message}`);
      expect(summary(second)).toEqual(summary(first));
      expect(first.run.outcomes.filter((o) => o.status === 'pass').length).toBeGreaterThan(3);
    } finally {
      vi.unstubAllEnvs();
    }
  }, 120_000);

  test('the cache lives under $XDG_CACHE_HOME, else ~/.cache', () => {
    expect(validatorCacheDir({ XDG_CACHE_HOME: '/x/cache' })).toBe('/x/cache/adcp-conformance/storyboard-validators');
    expect(validatorCacheDir({})).toMatch(/[\\/]\.cache[\\/]adcp-conformance[\\/]storyboard-validators$/);
  });
});

// The same code in this thread, on Ajv instances of the test's own (Ajv's prototype is left alone).
describe('what the cache loads, stores and passes through', () => {
  const sdkRequire = createRequire(sdkSchemaLoader());
  const Ajv = (sdkRequire('ajv') as { default: new (o: object) => AjvLike }).default;
  const addFormats = (sdkRequire('ajv-formats') as { default: (a: AjvLike) => void }).default;
  type Validate = ((data: unknown) => boolean) & { errors?: unknown; schema?: unknown };
  interface AjvLike {
    compile(schema: object): Validate;
  }
  interface Cache {
    dir: string;
    maxFiles: number;
    hits: number;
    stores: number;
  }
  const cachedCompile = new Function('require', `${VALIDATOR_CACHE_SOURCE}; return cachedCompile;`)(createRequire(import.meta.url)) as (
    compile: AjvLike['compile'],
    cache: object,
  ) => (this: AjvLike, schema: object) => Validate;

  function setup(dir: string, maxFiles = 300) {
    const cache: Cache & Record<string, unknown> = {
      dir,
      maxFiles,
      require: sdkRequire,
      ajvVersion: '8.x',
      standalone: (sdkRequire('ajv/dist/standalone') as { default: unknown }).default,
      hits: 0,
      stores: 0,
    };
    const compile = cachedCompile(Ajv.prototype.compile, cache);
    const ajv = () => {
      const a = new Ajv({ strict: false, allErrors: true, allowUnionTypes: true });
      addFormats(a);
      return a;
    };
    return { cache, compile: (schema: object) => compile.call(ajv(), schema) };
  }
  const schema = (n = 0): object => ({
    $id: `/schemas/test/thing-${n}.json`,
    type: 'object',
    required: ['when'],
    properties: { when: { type: 'string', format: 'date-time' }, list: { type: 'array', items: { $ref: '#/definitions/item' } } },
    definitions: { item: { type: 'integer', minimum: 1 } },
  });
  const POISON = 'module.exports = function validate() { return true; };';
  const digest = (body: string) =>
    (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(body).digest('hex');
  const plant = (file: string, body: string) =>
    writeFileSync(file, `// adcp-conformance storyboard validator sha256:${digest(body)}\n${body}`, { mode: 0o600 });
  const onlyFile = (dir: string) =>
    join(
      dir,
      readdirSync(dir).find((n) => n.endsWith('.cjs'))!,
    );

  test('stored, then loaded: same verdicts and errors, the schema on the function, a format and a local $ref', () => {
    const { cache, compile } = setup(join(tempDir(), 'v'));
    const fresh = compile(schema());
    const again = compile(schema());
    expect(cache).toMatchObject({ stores: 1, hits: 1 });
    expect(again).not.toBe(fresh);
    expect(again.schema).toEqual(schema());
    for (const data of [{ when: '2026-12-03T10:00:00Z', list: [1, 2] }, { when: 'tuesday', list: [0, 'x'] }, {}]) {
      expect(again(data)).toBe(fresh(data));
      expect(again.errors).toEqual(fresh.errors);
    }
    expect(again({ when: 'tuesday' })).toBe(false);
  });

  test('a file with a wrong digest is not loaded (and is replaced)', () => {
    const dir = join(tempDir(), 'v');
    const { cache, compile } = setup(dir);
    compile(schema());
    const file = onlyFile(dir);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/sha256:[0-9a-f]+/, `sha256:${'0'.repeat(64)}`), { mode: 0o600 });
    expect(compile(schema())({})).toBe(false);
    expect(cache).toMatchObject({ hits: 0, stores: 2 });
  });

  test('a file others can write, or in a directory others can write, is not loaded; the same file kept private is', () => {
    const dir = join(tempDir(), 'v');
    const { cache, compile } = setup(dir);
    compile(schema());
    const file = onlyFile(dir);
    plant(file, POISON);
    chmodSync(file, 0o666);
    expect(compile(schema())({})).toBe(false); // compiled again: the planted code ran not
    plant(file, POISON);
    chmodSync(dir, 0o777);
    expect(compile(schema())({})).toBe(false);
    expect(cache.hits).toBe(0);
    chmodSync(dir, 0o700);
    plant(file, POISON);
    expect(compile(schema())({})).toBe(true); // the gate is the ownership and mode, not luck
    expect(cache.hits).toBe(1);
  });

  test('passed through, never stored: a $ref leaving the document, an $id outside /schemas/, no $id', () => {
    const dir = join(tempDir(), 'v');
    const { cache, compile } = setup(dir);
    const ajvWithRef = new Ajv({ strict: false });
    (ajvWithRef as unknown as { addSchema(s: object): void }).addSchema({ $id: '/schemas/test/part.json', type: 'string' });
    const external = cachedCompile(Ajv.prototype.compile, cache).call(ajvWithRef, {
      $id: '/schemas/test/whole.json',
      properties: { p: { $ref: '/schemas/test/part.json' } },
    });
    expect(external({ p: 1 })).toBe(false);
    compile({ $id: 'https://example.com/x.json', type: 'string' });
    compile({ type: 'string' });
    expect(cache).toMatchObject({ hits: 0, stores: 0 });
  });

  test('at most maxFiles files: the oldest goes first', () => {
    const dir = join(tempDir(), 'v');
    const { cache, compile } = setup(dir, 2);
    compile(schema(1));
    const oldest = onlyFile(dir);
    utimesSync(oldest, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    compile(schema(2));
    compile(schema(3));
    const left = readdirSync(dir);
    expect(left).toHaveLength(2);
    expect(left.map((n) => join(dir, n))).not.toContain(oldest);
    expect(cache.stores).toBe(3);
  });
});
