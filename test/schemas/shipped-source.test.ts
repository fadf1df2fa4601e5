// The shipped AdCP schema trees (adcp-schemas/): the composite default source (shipped first, then
// @adcp/sdk; `--schemas` added before both), provenance per tree, the pin a capture sends
// (chooseAdcpPin), and scripts/refresh-schemas.mjs on a checkout it builds itself. Nothing here reads the
// project's own adcp-schemas/ (it is not committed): the trees are made in a temporary directory.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  compositeSchemaSource,
  dirSchemaSource,
  schemaSourceFromSpec,
  sdkSchemaSource,
  shippedSchemaSource,
} from '../../harness/schemas/index.ts';
import { chooseAdcpPin } from '../../harness/schemas/version.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
let work: string;

/** A minimal version tree: index.json (its `adcp_version`) and one schema. */
async function tree(dir: string, version: string, extra = ''): Promise<void> {
  await mkdir(path.join(dir, 'core'), { recursive: true });
  await mkdir(path.join(dir, 'bundled'), { recursive: true });
  await writeFile(
    path.join(dir, 'index.json'),
    JSON.stringify({ $id: `/schemas/${version}/index.json`, adcp_version: version, schemas: {}, note: extra }),
  );
  await writeFile(path.join(dir, 'core', 'thing.json'), JSON.stringify({ $id: `/schemas/${version}/core/thing.json`, type: 'object' }));
  await writeFile(path.join(dir, 'bundled', 'big.json'), '{}');
}

function node(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    ),
  );
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'shipped-schemas-'));
  // A checkout of the AdCP repository, as refresh-schemas.mjs reads one: dist/schemas/<v>/ + the discovery index.
  const schemas = path.join(work, 'checkout', 'dist', 'schemas');
  for (const v of ['3.1.19', '3.1.18', '3.0.26', '2.5.3', '3.2.0-beta.5']) await tree(path.join(schemas, v), v);
  await writeFile(
    path.join(schemas, 'index.json'),
    JSON.stringify({ latest_by_minor: { '3.1': '3.1.19', '3.0': '3.0.26', '2.5': '2.5.3' }, versions: [] }),
  );
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('scripts/refresh-schemas.mjs', () => {
  test('--latest from a checkout: the newest patch of each supported minor, bundled/ skipped, SOURCES.json with fingerprints', async () => {
    const out = path.join(work, 'shipped');
    const r = await node(['scripts/refresh-schemas.mjs', '--from', path.join(work, 'checkout'), '--latest', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/AdCP 3\.1\.19: 2 files, sha256 [0-9a-f]{16}…/);
    const sources = JSON.parse(await readFile(path.join(out, 'SOURCES.json'), 'utf8')) as {
      license: string;
      source: { kind: string; repository: string };
      trees: Record<string, { files: number; sha256: string; from: string }>;
    };
    expect(Object.keys(sources.trees)).toEqual(['3.1.19', '3.0.26', '2.5.3']);
    expect(sources.license).toBe('Apache-2.0');
    expect(sources.source).toMatchObject({ kind: 'checkout', repository: 'adcontextprotocol/adcp' });
    expect(sources.trees['3.1.19']).toMatchObject({ files: 2, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(existsSync(path.join(out, '3.1.19', 'bundled'))).toBe(false);
    expect(existsSync(path.join(out, '3.1.18'))).toBe(false);
    // --prepack accepts the trees as they are, and refuses once one is changed.
    expect((await node(['scripts/refresh-schemas.mjs', '--prepack', '--out', out])).code).toBe(0);
    await writeFile(path.join(out, '3.0.26', 'core', 'thing.json'), '{"changed":true}');
    const changed = await node(['scripts/refresh-schemas.mjs', '--prepack', '--out', out]);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/3\.0\.26: fingerprint differs[\s\S]*refusing to pack/);
  });

  test('--versions picks exact releases; with nothing present --prepack packs (one line says so) and --publish refuses', async () => {
    const out = path.join(work, 'exact');
    const r = await node(['scripts/refresh-schemas.mjs', '--from', path.join(work, 'checkout'), '--versions', '3.1.18', '--out', out]);
    expect(r.code).toBe(0);
    expect(existsSync(path.join(out, '3.1.18', 'index.json'))).toBe(true);
    // A partial set (no 3.0 or 2.5 tree) is refused, to pack and to publish: only "none at all" packs.
    const partial = await node(['scripts/refresh-schemas.mjs', '--prepack', '--out', out]);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toMatch(/no 3\.0\.x tree[\s\S]*refusing to pack/);
    // A git clone holds no tree: packing it (and `npm install <git URL>`) must work.
    const nothing = path.join(work, 'nothing');
    const empty = await node(['scripts/refresh-schemas.mjs', '--prepack', '--out', nothing]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(
        /packing without the official AdCP schema trees .* bundled in @adcp\/sdk \d+\.\d+\.\d+ \(AdCP 3\.0\.\d+.*\) only$/,
      ),
    ]);
    const publish = await node(['scripts/refresh-schemas.mjs', '--publish', '--out', nothing]);
    expect(publish.code).toBe(1);
    expect(publish.stderr).toMatch(/SOURCES\.json is missing[\s\S]*refusing to publish/);
    expect((await node(['scripts/refresh-schemas.mjs'])).code).toBe(2); // no --from: usage
  });
});

describe('the composite source', () => {
  test('shipped trees first, @adcp/sdk for the rest; a --schemas tree of the same version wins; the spec reopens it', async () => {
    const shippedDir = path.join(work, 'composite-shipped');
    await tree(path.join(shippedDir, '3.1.19'), '3.1.19');
    await tree(path.join(shippedDir, '2.5.3'), '2.5.3');
    await writeFile(
      path.join(shippedDir, 'SOURCES.json'),
      JSON.stringify({ trees: { '3.1.19': { from: `adcontextprotocol/adcp@${'a'.repeat(40)}:dist/schemas/3.1.19` } } }),
    );
    const fork = path.join(work, 'fork');
    await tree(fork, '3.1.19', 'the fork');

    const shipped = shippedSchemaSource(shippedDir);
    const source = compositeSchemaSource([shipped, sdkSchemaSource()]);
    expect((await source.versions()).sort()).toEqual(['2.5.3', '3.0.6', '3.1.19']);
    expect(await source.provenance('3.1.19')).toBe(`shipped adcp-schemas 3.1.19 from adcontextprotocol/adcp@${'a'.repeat(12)}`);
    expect(await source.provenance('2.5.3')).toBe('shipped adcp-schemas 2.5.3 (origin not recorded)'); // shipped wins the SDK's 2.5.3
    expect(await source.provenance('3.0.6')).toMatch(/^@adcp\/sdk \d+\.\d+\.\d+$/);
    expect((await source.openTree('3.0.6')).location).toContain('@adcp');

    const withFork = compositeSchemaSource([dirSchemaSource(fork), shipped, sdkSchemaSource()]);
    expect((await withFork.openTree('3.1.19')).index['note']).toBe('the fork');
    expect(await withFork.provenance('3.1.19')).toBe(`--schemas ${fork}`);
    const reopened = schemaSourceFromSpec(JSON.parse(JSON.stringify(withFork.spec)));
    expect(reopened.key).toBe(withFork.key);
    expect((await reopened.openTree('3.1.19')).index['note']).toBe('the fork');
    await expect(withFork.openTree('9.9.9')).rejects.toThrow(/no schema source offers AdCP 9\.9\.9/);
  });
});

describe('chooseAdcpPin', () => {
  const available = ['3.1.19', '3.0.26', '2.5.3', '3.0.6'];
  const caps = (supported: unknown) => ({ adcp: { major_versions: [3], supported_versions: supported } });

  test('the newest supported release the harness has, at release precision, with its major', () => {
    expect(chooseAdcpPin(caps(['3.0', '3.1']), available)).toMatchObject({ release: '3.1', major: 3 });
    expect(chooseAdcpPin(caps(['3.1.4', '3.0']), available)).toMatchObject({ release: '3.1', major: 3 });
    expect(chooseAdcpPin(caps(['3.0', '3.2']), available)).toMatchObject({ release: '3.0', major: 3 }); // 3.2 absent
  });

  test('the config pins a release whatever the seller lists', () => {
    expect(chooseAdcpPin(caps(['3.1']), available, '3.0')).toEqual({ release: '3.0', major: 3, reason: 'config: adcpVersion "3.0"' });
    // A patch pins its release: patches are not negotiated.
    expect(chooseAdcpPin(caps(['3.1']), available, '3.0.6')).toMatchObject({ release: '3.0', major: 3 });
  });

  test('no supported_versions (a 3.0 seller), no answer, or nothing the harness has: no pin, with the reason', () => {
    expect(chooseAdcpPin({ adcp: { major_versions: [3] } }, available)).toMatchObject({
      release: undefined,
      reason: expect.stringMatching(/lists no adcp\.supported_versions/),
    });
    expect(chooseAdcpPin(undefined, available).release).toBeUndefined();
    expect(chooseAdcpPin(caps(['4.0', '3.2-beta']), available)).toMatchObject({
      release: undefined,
      reason: expect.stringMatching(/none of the seller's supported_versions/),
    });
  });

  test('hostile capabilities never throw', () => {
    const hostile = Object.create({ adcp: { supported_versions: ['3.1'] } }) as object; // inherited, not own
    expect(chooseAdcpPin(hostile, available).release).toBeUndefined();
    expect(chooseAdcpPin(caps(new Array(10_000).fill('x'.repeat(100))), available).release).toBeUndefined();
    expect(chooseAdcpPin(caps([null, 3, {}, '3.1']), available).release).toBe('3.1');
    expect(chooseAdcpPin('text', available).release).toBeUndefined();
  });
});
