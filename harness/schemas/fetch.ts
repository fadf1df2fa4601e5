// HTTP GET of schema JSON for URL schema sources: undici with connect / header / body timeouts and a
// byte cap enforced while reading, cached on disk keyed by URL. A URL in the cache is never fetched
// again (schema releases are immutable); failures are not cached on disk.
// undici is imported on the first download, not with this module: every schema module imports this one
// (errorText), the judge worker among them, and loading undici costs ~0.4 s of CPU that a local schema
// tree (the default) never needs.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Dispatcher } from 'undici';

export interface FetchOptions {
  /** Connect, headers and body (idle) timeouts, and the cap on one whole request. */
  timeoutMs?: number;
  /** Largest body accepted for one file. */
  maxBytes?: number;
}

export class SchemaFetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SchemaFetchError';
  }
}

export interface CachedFetcher {
  /** Parsed JSON at `url`, from the disk cache when present. Throws SchemaFetchError. */
  getJson(url: string): Promise<unknown>;
  /** How many HTTP requests this fetcher has made (tests count cache hits with it). */
  readonly requests: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

export function createCachedFetcher(cacheDir: string, options: FetchOptions = {}): CachedFetcher {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let dispatcher: Dispatcher | undefined;
  const inFlight = new Map<string, Promise<unknown>>();
  let requests = 0;

  const cacheFile = (url: string): string => {
    const hash = createHash('sha256').update(url).digest('hex').slice(0, 32);
    const tail =
      url
        .replace(/[?#].*$/, '')
        .split('/')
        .pop()
        ?.replace(/[^A-Za-z0-9._-]/g, '_')
        .slice(-60) ?? '';
    return path.join(cacheDir, `${hash}-${tail || 'index'}`);
  };

  const download = async (url: string): Promise<string> => {
    const { Agent, interceptors, request } = await import('undici');
    dispatcher ??= new Agent({
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    }).compose(interceptors.redirect({ maxRedirections: 3 }));
    requests++;
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        dispatcher,
        method: 'GET',
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs * 2),
      });
    } catch (e) {
      throw new SchemaFetchError(`GET ${url} failed: ${errorText(e)}`);
    }
    if (res.statusCode !== 200) {
      await res.body.dump().catch(() => undefined);
      throw new SchemaFetchError(`GET ${url} answered HTTP ${res.statusCode}`, res.statusCode);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        size += buf.length;
        if (size > maxBytes) {
          res.body.destroy();
          throw new SchemaFetchError(`GET ${url}: body exceeds ${maxBytes} bytes`);
        }
        chunks.push(buf);
      }
    } catch (e) {
      if (e instanceof SchemaFetchError) throw e;
      throw new SchemaFetchError(`GET ${url}: reading the body failed: ${errorText(e)}`);
    }
    return Buffer.concat(chunks).toString('utf8');
  };

  const load = async (url: string): Promise<unknown> => {
    const file = cacheFile(url);
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      text = undefined;
    }
    if (text === undefined) {
      text = await download(url);
      parseJson(url, text); // never cache what does not parse
      await mkdir(cacheDir, { recursive: true });
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, file);
    }
    return parseJson(url, text);
  };

  return {
    getJson(url: string): Promise<unknown> {
      let p = inFlight.get(url);
      if (!p) {
        p = load(url);
        inFlight.set(url, p);
        p.catch(() => inFlight.delete(url)); // let a later call retry a failure
      }
      return p;
    },
    get requests() {
      return requests;
    },
  };
}

function parseJson(url: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new SchemaFetchError(`GET ${url}: body is not JSON (${errorText(e)})`);
  }
}

export function errorText(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}
