// Schema sources: the --schemas option, the @adcp/sdk data, and a directory tree with the awkward
// parts real trees have (duplicate $ids under core/async-response-refs, non-schema JSON, a broken file).
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createSchemaService,
  dirSchemaSource,
  parseSchemasOption,
  SHIPPED_DIR_ENV,
  SchemaSourceError,
  sdkSchemaSource,
} from '../../harness/schemas/index.ts';
import { capture, NO_SHARED, SHARED_SCHEMAS } from './helpers.ts';

describe('parseSchemasOption', () => {
  test('absent → the default (shipped, then @adcp/sdk); "sdk" → the @adcp/sdk data; http(s) and a directory are added first', () => {
    const saved = process.env[SHIPPED_DIR_ENV];
    process.env[SHIPPED_DIR_ENV] = 'none';
    try {
      expect(parseSchemasOption(undefined, '/tmp/c').kind).toBe('sdk'); // no shipped trees: the SDK's alone
      expect(parseSchemasOption('sdk', '/tmp/c').kind).toBe('sdk');
      const url = parseSchemasOption('https://adcontextprotocol.org/schemas', '/tmp/c');
      expect(url.kind).toBe('composite');
      expect(url.key).toMatch(/^composite:\[url:https:\/\/adcontextprotocol\.org\/schemas,sdk:/);
      const dir = parseSchemasOption(tmpdir(), '/tmp/c');
      expect(dir.spec).toMatchObject({ kind: 'composite', parts: [{ kind: 'dir', dir: path.resolve(tmpdir()) }, { kind: 'sdk' }] });
      process.env[SHIPPED_DIR_ENV] = tmpdir();
      expect(parseSchemasOption(undefined, '/tmp/c').spec).toEqual({
        kind: 'composite',
        parts: [{ kind: 'shipped', dir: path.resolve(tmpdir()) }, { kind: 'sdk' }],
      });
    } finally {
      if (saved === undefined) delete process.env[SHIPPED_DIR_ENV];
      else process.env[SHIPPED_DIR_ENV] = saved;
    }
  });

  test('a missing directory or another URL scheme is a usage error', () => {
    expect(() => parseSchemasOption('/no/such/schemas/dir', '/tmp/c')).toThrow(SchemaSourceError);
    expect(() => parseSchemasOption('ftp://example.com/schemas', '/tmp/c')).toThrow(/only http\(s\) URLs/);
  });
});

describe('sources', () => {
  test('the SDK offers its 3.0 and 2.5 trees, found through the package, not a hard-coded path', async () => {
    const source = sdkSchemaSource();
    expect((await source.versions()).sort()).toEqual(['2.5.3', '3.0.6']);
    expect(source.label).toMatch(/^@adcp\/sdk \d+\.\d+\.\d+ schemas$/);
    const tree = await source.openTree('3.0.6');
    expect(tree.idPrefix).toBe('/schemas/3.0.6/');
    expect(tree.manifest).toBeDefined();
    const files = (await tree.listFiles()) ?? [];
    expect(files).toContain('core/product.json');
    expect(files.some((f) => f.includes('async-response-refs') || f.startsWith('bundled/') || f.endsWith('index.json'))).toBe(false);
  });

  test.skipIf(NO_SHARED)('a directory of version directories lists what it holds', async () => {
    expect(await dirSchemaSource(SHARED_SCHEMAS).versions()).toEqual(['3.1.19']);
  });
});

describe('an awkward local tree', () => {
  let dir: string;
  const write = async (rel: string, body: unknown) => {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), typeof body === 'string' ? body : JSON.stringify(body));
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'adcp-tree-'));
    const id = (rel: string) => `/schemas/9.1.0/${rel}`;
    await write('index.json', {
      $id: id('index.json'),
      adcp_version: '9.1.0',
      schemas: { 'media-buy': { tasks: { 'get-things': { response: { $ref: id('media-buy/get-things-response.json') } } } } },
    });
    await write('manifest.json', { adcp_version: '9.1.0', tools: {} }); // lists nothing: the index fills in
    await write('media-buy/get-things-response.json', {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: id('media-buy/get-things-response.json'),
      type: 'object',
      required: ['things'],
      properties: { things: { type: 'array', items: { $ref: '../core/thing.json' } } },
    });
    await write('core/thing.json', {
      $id: id('core/thing.json'),
      type: 'object',
      required: ['id'],
      additionalProperties: false,
      properties: { id: { type: 'string' } },
    });
    // Same $id as core/thing.json, under the directory real trees keep duplicates in.
    await write('core/async-response-refs/thing.json', { $id: id('core/thing.json'), type: 'string' });
    // A second file declaring an existing $id outside that directory, and a broken file.
    await write('zz/dup.json', { $id: id('core/thing.json'), type: 'number' });
    await write('core/broken.json', '{ not json');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('loads, resolves relative refs, ignores the duplicates and the broken file', async () => {
    const service = await createSchemaService(capture(), dirSchemaSource(dir));
    expect(service.adcpVersion.version).toBe('9.1.0');
    expect(service.adcpVersion.reason).toMatch(/^default: schemas 9\.1\.0 · judged at AdCP 9\.1 \(patch 9\.1\.0\), schemas: --schemas \//);
    expect(service.validateAdcpResponse('get_things', { things: [{ id: 'a' }] })).toEqual({ errors: [] });
    expect(service.validateAdcpResponse('get_things', { things: [{ id: 1, x: true }] })).toEqual({
      errors: [
        { pointer: '/things/0/x', keyword: 'additionalProperties', expected: "no additional property 'x'", found: 'true' },
        { pointer: '/things/0/id', keyword: 'type', expected: 'type string', found: '1' },
      ],
    });
    expect(service.validateAdcpResponse('get_things', { status: 'working' })).toEqual({
      skip: "AdCP 9.1.0 has no 'working' response schema for get_things",
    });
  });
});
