// The build's precompiled AdCP validators (harness/schemas/precompile.ts → precompiled.ts) against the ones
// the registry compiles at run time: for every task of the @adcp/sdk trees, the same payloads — valid,
// invalid in many ways (generated from the schemas themselves: wrong types, bad formats and patterns,
// duplicate items under uniqueItems, enum misses, oneOf branches) and one that trips the error cap — give
// the same verdict, the same `errors` array and the same cap behaviour. And they are used only for the
// tree they were made from.
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isCapStop, validateBounded } from '../../harness/schemas/bounded.ts';
import { precompile, type PrecompileReport } from '../../harness/schemas/precompile.ts';
import {
  defaultPrecompiledDir,
  MANIFEST_FILE,
  SOURCES_PRECOMPILED_ENV,
  type PrecompiledManifest,
} from '../../harness/schemas/precompiled.ts';
import { AdcpRegistry } from '../../harness/schemas/registry.ts';
import { dirSchemaSource, sdkSchemaSource, type SchemaTree } from '../../harness/schemas/source.ts';
import { minimal30 } from './helpers.ts';
import { precompiledTempDir } from '../setup/native-precompiled.ts';

let outDir: string;
let scratch: string;
let report: PrecompileReport;
const trees = new Map<string, SchemaTree>();

beforeAll(async () => {
  const made = await precompiledTempDir('equivalence');
  outDir = made.dir;
  // Copies of the modules are made there too: named alike, loaded alike.
  scratch = (await precompiledTempDir('equivalence-trees')).dir;
  const source = sdkSchemaSource();
  for (const v of await source.versions()) trees.set(v, await source.openTree(v));
  report = await precompile({ outDir, trees: [...trees.values()], importSpecifier: made.importSpecifier });
}, 120_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------------------
// Payloads made from the schemas: a seeded walk that mostly follows the schema and sometimes breaks it.

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = unknown;
type Schema = Record<string, unknown>;

class PayloadMaker {
  constructor(
    private readonly docs: Map<string, Schema>,
    private readonly rnd: () => number,
    /** How often a value is deliberately wrong. */
    private readonly breakRate: number,
  ) {}

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)]!;
  }

  private wrong(): Json {
    return this.pick<Json>([42, 'not-what-you-want', true, null, [], {}, -1.5, '2026-13-45T99:99:99Z', 'a'.repeat(300)]);
  }

  private resolve(ref: string, base: Schema): Schema | undefined {
    const [file, pointer] = ref.split('#') as [string, string | undefined];
    const doc = file ? this.docs.get(file) : base;
    if (!doc) return undefined;
    let node: unknown = doc;
    for (const token of (pointer ?? '').split('/').filter(Boolean)) {
      node = (node as Record<string, unknown> | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return node && typeof node === 'object' ? (node as Schema) : undefined;
  }

  make(schema: unknown, root: Schema, depth = 0): Json {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return this.wrong();
    const s = schema as Schema;
    if (this.rnd() < this.breakRate) return this.wrong();
    if (typeof s.$ref === 'string') {
      const target = this.resolve(s.$ref, root);
      const targetRoot = s.$ref.startsWith('#') ? root : (this.docs.get(s.$ref.split('#')[0]!) ?? root);
      return target && depth < 12 ? this.make(target, targetRoot, depth + 1) : this.wrong();
    }
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum)) return this.rnd() < 0.9 ? this.pick(s.enum) : 'not-in-the-enum';
    for (const key of ['oneOf', 'anyOf'] as const) {
      const branches = s[key];
      if (Array.isArray(branches) && branches.length > 0) {
        const branch = this.make(this.pick(branches), root, depth + 1);
        const own = this.object(s, root, depth);
        return branch && typeof branch === 'object' && !Array.isArray(branch) && own && typeof own === 'object'
          ? { ...(own as object), ...(branch as object) }
          : branch;
      }
    }
    if (Array.isArray(s.allOf) && s.allOf.length > 0) {
      const parts = s.allOf.map((x) => this.make(x, root, depth + 1)).filter((x) => x && typeof x === 'object' && !Array.isArray(x));
      return Object.assign({}, ...(parts as object[]));
    }
    const type = Array.isArray(s.type) ? this.pick(s.type as string[]) : s.type;
    if (type === 'object' || s.properties) return this.object(s, root, depth);
    if (type === 'array') {
      if (depth > 10) return [];
      const n = Math.floor(this.rnd() * 4);
      const items: Json[] = [];
      for (let i = 0; i < n; i++) items.push(this.make(s.items, root, depth + 1));
      // Duplicates: what the linear uniqueItems keyword must catch, the same way in both.
      if (items.length > 0 && this.rnd() < 0.4) items.push(structuredClone(items[0]));
      return items;
    }
    if (type === 'string') {
      const formats: Record<string, Json[]> = {
        'date-time': ['2026-01-01T00:00:00Z', 'yesterday'],
        date: ['2026-01-01', '01/01/2026'],
        uri: ['https://example.com/x', 'not a uri'],
        email: ['a@example.com', 'nope'],
      };
      const f = typeof s.format === 'string' ? formats[s.format] : undefined;
      if (f) return this.pick(f);
      return this.pick(['x', 'USD', 'abc-123', '', 'ZZ', 'a'.repeat(Number(s.maxLength ?? 10) + 1)]);
    }
    if (type === 'integer' || type === 'number') return this.pick([0, 1, -1, 2.5, 1e9, Number(s.minimum ?? 0) - 1]);
    if (type === 'boolean') return this.rnd() < 0.5;
    if (type === 'null') return null;
    return this.wrong();
  }

  private object(s: Schema, root: Schema, depth: number): Json {
    const out: Record<string, Json> = {};
    if (depth > 10) return out;
    const props = (s.properties ?? {}) as Record<string, unknown>;
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    for (const [name, sub] of Object.entries(props)) {
      if (required.has(name) ? this.rnd() < 0.92 : this.rnd() < 0.5) out[name] = this.make(sub, root, depth + 1);
    }
    if (this.rnd() < 0.2) out.unexpected_extra = this.wrong();
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------------

type Outcome = { threw: 'cap' | string } | { valid: boolean; errors: unknown };

/** A raw call of the full (capped) validator: its verdict and its `errors` array, or what it threw. */
function raw(validate: ValidateFunction, payload: unknown): Outcome {
  try {
    const valid = validate(payload) as boolean;
    return { valid, errors: structuredClone(validate.errors ?? null) };
  } catch (e) {
    return { threw: isCapStop(e) ? 'cap' : String(e) };
  }
}

async function openBoth(tree: SchemaTree): Promise<{ pre: AdcpRegistry; compiled: AdcpRegistry }> {
  const pre = await AdcpRegistry.open(tree, { precompiled: outDir });
  const compiled = await AdcpRegistry.open(tree, { precompiled: null });
  await pre.preload(pre.taskNames(), [pre.webhookPayloadId()]);
  return { pre, compiled };
}

function taskIds(registry: AdcpRegistry): Array<{ tool: string; id: string }> {
  const out: Array<{ tool: string; id: string }> = [];
  for (const tool of registry.taskNames()) {
    const t = registry.task(tool)!;
    for (const id of [t.response, ...Object.values(t.async)]) if (registry.has(id)) out.push({ tool, id });
  }
  // What the judge validates besides task responses: the webhook payload (in 3.0 trees).
  if (registry.has(registry.webhookPayloadId())) out.push({ tool: 'mcp-webhook-payload', id: registry.webhookPayloadId() });
  return out;
}

async function docsOf(tree: SchemaTree): Promise<Map<string, Schema>> {
  const docs = new Map<string, Schema>();
  for (const rel of (await tree.listFiles()) ?? []) {
    const doc = (await tree.readJson(rel)) as Schema;
    docs.set(typeof doc.$id === 'string' ? doc.$id : tree.idPrefix + rel, doc);
  }
  return docs;
}

describe('precompiled AdCP validators', () => {
  test('the build step compiles every task of both @adcp/sdk trees and leaves nothing to run time', async () => {
    expect(report.trees.map((t) => t.version).sort()).toEqual([...trees.keys()].sort());
    for (const t of report.trees) {
      expect(t.skipped, t.version).toEqual([]);
      expect(t.ids).toBeGreaterThan(10);
    }
    const manifest = JSON.parse(await readFile(path.join(outDir, MANIFEST_FILE), 'utf8')) as PrecompiledManifest;
    // The webhook payload's validator too, in its own module, wherever the tree has the schema.
    const t30 = manifest.trees.find((t) => t.version.startsWith('3.0'))!;
    expect(t30.ids[`${t30.idPrefix}core/mcp-webhook-payload.json`]?.file).toBe('mcp-webhook-payload.mjs');
    const any = manifest.trees[0]!;
    const code = await readFile(path.join(outDir, any.dir, Object.values(any.ids)[0]!.file), 'utf8');
    // Ajv's require() of its helpers, given a require; the error cap in the code; no Ajv instance.
    expect(code).toContain('const require = createRequire(import.meta.url);');
    expect(code).toContain('throw {__adcpErrorCap: true}');
    expect(code).not.toMatch(/\.call\(self,/);
  });

  test('same verdicts, same errors arrays, same cap behaviour as the validators compiled at run time', async () => {
    let compared = 0;
    let invalid = 0;
    let capped = 0;
    let uniqueItems = 0;
    for (const tree of trees.values()) {
      const { pre, compiled } = await openBoth(tree);
      const docs = await docsOf(tree);
      const ids = taskIds(pre);
      expect(ids.length).toBeGreaterThan(10);
      let seed = 1;
      for (const { tool, id } of ids) {
        expect(pre.isPrecompiled(id), id).toBe(true);
        expect(compiled.isPrecompiled(id), id).toBe(false);
        const a = pre.validator(id);
        const b = compiled.validator(id);
        if (typeof a === 'string' || typeof b === 'string') throw new Error(`${id}: ${String(a)} / ${String(b)}`);
        expect(a).not.toBe(b);
        const payloads: unknown[] = [{}, null, [], 'x', { status: 'completed' }, { errors: [{ code: 'X', message: 'y' }] }];
        const known = (minimal30() as Record<string, unknown>)[tool];
        if (known) payloads.push(known);
        for (const breakRate of [0, 0.02, 0.1, 0.3]) {
          for (let i = 0; i < 6; i++) payloads.push(new PayloadMaker(docs, prng(seed++), breakRate).make(docs.get(id), docs.get(id)!));
        }
        for (const payload of payloads) {
          const ra = raw(a, payload);
          const rb = raw(b, payload);
          expect(ra, `${id} on ${JSON.stringify(payload).slice(0, 300)}`).toEqual(rb);
          const ba = validateBounded(a, () => pre.firstErrorValidator(id), payload);
          const bb = validateBounded(b, () => compiled.firstErrorValidator(id), payload);
          expect(ba).toEqual(bb);
          compared++;
          if (!ba.valid) invalid++;
          if (JSON.stringify(rb).includes('"keyword":"uniqueItems"')) uniqueItems++;
        }
      }
      // The error cap: 16k empty products fail get_products per product, past ERROR_CAP.
      const products = pre.task('get_products')!.response;
      const many = { products: Array.from({ length: 16_000 }, () => ({})) };
      const va = pre.validator(products) as ValidateFunction;
      const vb = compiled.validator(products) as ValidateFunction;
      expect(raw(va, many)).toEqual({ threw: 'cap' });
      expect(raw(vb, many)).toEqual({ threw: 'cap' });
      const ba = validateBounded(va, () => pre.firstErrorValidator(products), many);
      expect(ba).toMatchObject({ valid: false, capped: true });
      expect(ba).toEqual(validateBounded(vb, () => compiled.firstErrorValidator(products), many));
      capped++;
    }
    // The generated payloads reach what matters: many invalid ones, and uniqueItems failures among them.
    expect(compared).toBeGreaterThan(1000);
    expect(invalid).toBeGreaterThan(compared / 2);
    expect(uniqueItems).toBeGreaterThan(5);
    expect(capped).toBe(trees.size);
  }, 120_000);

  test('used only for the tree they were compiled from: a changed file, another key or the sources fall back to compiling', async () => {
    const tree = trees.get('2.5.3') ?? [...trees.values()][0]!;
    const some = (r: AdcpRegistry) => taskIds(r)[0]!.id;

    // The same files in another directory: the same fingerprint, the same validators.
    const copy = path.join(scratch, 'same');
    await cp(tree.location, copy, { recursive: true });
    const same = await AdcpRegistry.open(await dirSchemaSource(copy).openTree(tree.version), { precompiled: outDir });
    await same.preload(same.taskNames());
    expect(same.precompiledState()).toMatchObject({ problems: [] });
    expect(same.isPrecompiled(some(same))).toBe(true);

    // One schema file changed by one character: compiled at run time.
    const changed = path.join(scratch, 'changed');
    await cp(tree.location, changed, { recursive: true });
    const files = (await tree.listFiles())!;
    const victim = path.join(changed, files[files.length - 1]!);
    const text = await readFile(victim, 'utf8');
    await writeFile(victim, text.replace(/"description":\s*"/, '"description": "changed: '));
    expect(await readFile(victim, 'utf8')).not.toBe(text);
    const other = await AdcpRegistry.open(await dirSchemaSource(changed).openTree(tree.version), { precompiled: outDir });
    await other.preload(other.taskNames());
    expect(other.precompiledState()).toBeUndefined();
    expect(other.isPrecompiled(some(other))).toBe(false);
    expect(typeof other.validator(some(other))).toBe('function');

    // A manifest made for another Ajv (or error cap, or code format): not used at all.
    const foreign = path.join(scratch, 'foreign');
    await cp(outDir, foreign, { recursive: true });
    const manifest = JSON.parse(await readFile(path.join(foreign, MANIFEST_FILE), 'utf8')) as PrecompiledManifest;
    await writeFile(path.join(foreign, MANIFEST_FILE), JSON.stringify({ ...manifest, key: manifest.key.replace('8.', '9.') }));
    const stale = await AdcpRegistry.open(tree, { precompiled: foreign });
    expect(stale.precompiledState()).toBeUndefined();

    // A module that does not load: its schemas are compiled instead, and the problem is kept.
    const broken = path.join(scratch, 'broken');
    await cp(outDir, broken, { recursive: true });
    const entry = manifest.trees.find((t) => t.version === tree.version)!;
    const [id, at] = Object.entries(entry.ids)[0]!;
    await writeFile(path.join(broken, entry.dir, at.file), 'export const v0 = ;');
    const partial = await AdcpRegistry.open(tree, { precompiled: broken });
    await partial.preload(partial.taskNames());
    expect(partial.precompiledState()?.problems.join('\n')).toContain(at.file);
    expect(partial.isPrecompiled(id)).toBe(false);
    expect(typeof partial.validator(id)).toBe('function');

    // From the TypeScript sources there is no build, so nothing precompiled by default (unless the test run
    // made some for the sources: test/setup/precompiled-schemas.ts).
    const forSources = process.env[SOURCES_PRECOMPILED_ENV];
    delete process.env[SOURCES_PRECOMPILED_ENV];
    try {
      expect(defaultPrecompiledDir()).toBeUndefined();
      const fromSources = await AdcpRegistry.open(tree);
      expect(fromSources.precompiledState()).toBeUndefined();
    } finally {
      if (forSources !== undefined) process.env[SOURCES_PRECOMPILED_ENV] = forSources;
    }
  }, 60_000);
});
