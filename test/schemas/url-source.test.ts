// URL schema source against a loopback HTTP server serving ../shared/adcp/schemas under /schemas/:
// discovery, version choice, validation, the on-disk cache (counted requests) and failures.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCachedFetcher } from '../../harness/schemas/fetch.ts';
import { createSchemaService, urlSchemaSource } from '../../harness/schemas/index.ts';
import { AdcpRegistry } from '../../harness/schemas/registry.ts';
import { capture, minimal31, NO_SHARED, NO_SHARED_MESSAGE, SHARED_SCHEMAS } from './helpers.ts';

describe.skipIf(NO_SHARED)(`URL schema source${NO_SHARED ? ` — skipped: ${NO_SHARED_MESSAGE}` : ''}`, () => {
  let server: Server;
  let base: string;
  let cacheDir: string;
  const requests: string[] = [];

  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), 'adcp-schema-cache-'));
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      requests.push(url.pathname);
      const rel = decodeURIComponent(url.pathname).replace(/^\/schemas\//, '');
      const file = path.resolve(SHARED_SCHEMAS, rel);
      if (!url.pathname.startsWith('/schemas/') || !file.startsWith(SHARED_SCHEMAS + path.sep)) {
        res.writeHead(404).end();
        return;
      }
      readFile(file).then(
        (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body),
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schemas`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(cacheDir, { recursive: true, force: true });
  });

  test('discovery → 3.1.19, fetched on demand, validates; a second use of the cache makes no request', async () => {
    const source = urlSchemaSource(base, cacheDir);
    const tools = ['get_adcp_capabilities', 'get_products', 'create_media_buy'];
    const service = await createSchemaService(capture({ adcpVersion: '3.1', tools }), source);
    expect(service.adcpVersion).toEqual({
      version: '3.1.19',
      reason: `config: adcpVersion "3.1" → schemas 3.1.19 · judged at AdCP 3.1 (patch 3.1.19), schemas: --schemas ${base.replace(/\/+$/, '')}`,
    });
    const payloads = minimal31();
    expect(service.validateAdcpResponse('get_products', payloads.get_products)).toEqual({ errors: [] });
    expect(service.validateAdcpResponse('create_media_buy', payloads.create_media_buy)).toEqual({ errors: [] });
    const missing = service.validateAdcpResponse('get_products', { status: 'completed', cache_scope: 'public' });
    expect('errors' in missing && missing.errors).toContainEqual(
      expect.objectContaining({ pointer: '/', keyword: 'required', expected: "required property 'products'" }),
    );
    expect(service.validateAdcpResponse('get_products', { status: 'working', percentage: 5 })).toEqual({ errors: [] });
    // Only what those tools reference was fetched, not the whole tree, each file once.
    const first = requests.length;
    expect(first).toBe(source.fetcher.requests);
    expect(first).toBeGreaterThan(10);
    expect(first).toBeLessThan(672);
    expect(new Set(requests).size).toBe(requests.length);
    // Not prepared for this agent: skipped with the reason, never a throw.
    expect(service.validateAdcpResponse('list_creatives', payloads.list_creatives)).toEqual({
      skip: expect.stringContaining('not available'),
    });

    // Same process, new source object: the registry is shared, nothing is fetched.
    const again = await createSchemaService(capture({ adcpVersion: '3.1', tools }), urlSchemaSource(base, cacheDir));
    expect(again.validateAdcpResponse('get_products', payloads.get_products)).toEqual({ errors: [] });
    expect(requests.length).toBe(first);

    // A fresh registry (as in a new process) over the same cache dir: all from disk.
    const fresh = urlSchemaSource(`${base}/`, cacheDir);
    const registry = await AdcpRegistry.open(await fresh.openTree('3.1.19'));
    await registry.prepare(tools);
    const validate = registry.validator(registry.task('get_products')!.response);
    expect(typeof validate).toBe('function');
    expect(fresh.fetcher.requests).toBe(0);
    expect(requests.length).toBe(first);

    // A later agent with more tools fetches only the new files.
    const more = await createSchemaService(
      capture({ adcpVersion: '3.1', tools: [...tools, 'list_creatives'] }),
      urlSchemaSource(base, cacheDir),
    );
    expect(more.validateAdcpResponse('list_creatives', payloads.list_creatives)).toEqual({ errors: [] });
    expect(requests.length).toBeGreaterThan(first);
    expect(new Set(requests).size).toBe(requests.length);
  });

  test('a base URL that is itself a version tree', async () => {
    const source = urlSchemaSource(`${base}/3.1.19`, cacheDir);
    expect(await source.versions()).toEqual(['3.1.19']);
    const service = await createSchemaService(capture({ tools: ['get_signals'] }), source);
    expect(service.adcpVersion.version).toBe('3.1.19');
    expect(service.validateAdcpResponse('get_signals', minimal31().get_signals)).toEqual({ errors: [] });
  });

  test('a version the server lacks (discovery lists 3.0.26, absent here): skips with the reason, no throw', async () => {
    const service = await createSchemaService(capture({ tools: ['get_products'] }), urlSchemaSource(base, cacheDir));
    expect(service.adcpVersion.version).toBe('3.0.26');
    expect(service.adcpVersion.reason).toMatch(
      /^default: schemas 3\.0\.26 · judged at AdCP 3\.0 \(patch 3\.0\.26\), schemas: --schemas \S+; AdCP 3\.0\.26 schemas .* could not be loaded: GET .*3\.0\.26\/index\.json answered HTTP 404/,
    );
    expect(service.validateAdcpResponse('get_products', { products: [] })).toEqual({ skip: expect.stringContaining('HTTP 404') });
    expect(service.compileOutputSchema('t', { type: 'object' })).toEqual({ ok: true });
  });

  test('an unreachable source: skips with the reason, no throw', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const service = await createSchemaService(
      capture(),
      urlSchemaSource(`http://127.0.0.1:${port}/schemas`, cacheDir, { timeoutMs: 2000 }),
    );
    expect(service.validateAdcpResponse('get_products', { products: [] })).toEqual({ skip: expect.stringContaining('failed') });
  });

  test('the byte cap applies while reading, and nothing is cached', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'adcp-schema-cap-'));
    try {
      const fetcher = createCachedFetcher(dir, { maxBytes: 1000 });
      await expect(fetcher.getJson(`${base}/3.1.19/index.json`)).rejects.toThrow(/exceeds 1000 bytes/);
      const again = createCachedFetcher(dir, { maxBytes: 1000 });
      await expect(again.getJson(`${base}/3.1.19/index.json`)).rejects.toThrow(/exceeds 1000 bytes/);
      expect(again.requests).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
