// The storyboard runner's AdCP validators, kept on disk between runs. `@adcp/sdk` compiles each task's
// bundled request and response schema with Ajv in every runner thread (allErrors, refs inlined: ~1.2
// CPU-s for the six of a one-agent `universal` run); that compile is the larger part of a thread's own
// work. The runner thread wraps Ajv's `compile` (`cachedCompile`, below): a schema the SDK compiles is
// compiled once by the SDK's own Ajv instance with its own options, its standalone code is written to
// the cache, and later threads load that code instead. Only self-contained AdCP schemas are kept (an
// `$id` under /schemas/, no `$ref` leaving the document), so the code depends on nothing but the schema
// text, the Ajv version and the instance's options, which are the key. A file is loaded only from a
// directory and file the user owns that no one else can write, and only when its digest matches.
//
// The worker is plain CommonJS given inline (worker.ts), so this is CommonJS source too. It defines
// `cachedCompile(compile, cache)`, a compile through the cache, and `installValidatorCache(where)`, which
// puts it on the Ajv class the SDK's schema loader requires and returns the cache's counters.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { userCacheDir } from '../cache-dir.ts';

/** Where the runner's validators are kept: `$XDG_CACHE_HOME/adcp-conformance/storyboard-validators` (default `~/.cache`). */
export function validatorCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return userCacheDir('storyboard-validators', env);
}

/** The SDK's schema loader (not an exported subpath: beside its main entry), whose `require('ajv')` the cache wraps. */
export function sdkSchemaLoader(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@adcp/sdk')), 'validation', 'schema-loader.js');
}

/** Files kept at most; the oldest go first when a new one is written (each is 0.1–1.5 MB of code). */
export const VALIDATOR_CACHE_MAX_FILES = 300;

export const VALIDATOR_CACHE_SOURCE = String.raw`
function cachedCompile(compile, cache) {
  const fs = require('node:fs');
  const path = require('node:path');
  const crypto = require('node:crypto');
  const HEADER = '// adcp-conformance storyboard validator sha256:';
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex');

  // Self-contained: every $ref stays inside the document (bundled schemas have theirs inlined).
  function selfContained(schema) {
    const stack = [schema];
    let seen = 0;
    while (stack.length) {
      const node = stack.pop();
      if (++seen > 2000000) return false;
      if (Array.isArray(node)) { for (const x of node) if (x && typeof x === 'object') stack.push(x); continue; }
      for (const k of Object.keys(node)) {
        const v = node[k];
        if (k === '$ref' && (typeof v !== 'string' || !v.startsWith('#'))) return false;
        if (v && typeof v === 'object') stack.push(v);
      }
    }
    return true;
  }
  // The options that shape generated code; functions by name, the logger and URI resolver left out.
  function optionsOf(ajv) {
    const skip = new Set(['logger', 'uriResolver', 'code']);
    const opts = JSON.stringify(ajv.opts, (k, v) => (skip.has(k) ? undefined : typeof v === 'function' ? 'fn:' + v.name : v));
    const code = ajv.opts.code || {};
    return JSON.stringify([opts, String(code.formats), !!code.es5, !!code.esm, !!code.lines, String(code.optimize), String(code.regExp && code.regExp.code),
      Object.keys(ajv.formats || {}).sort(), Object.keys((ajv.RULES && ajv.RULES.all) || {}).sort()]);
  }
  // Trusted: a regular file (or directory) of this user's that neither group nor others can write.
  function trusted(stat, dir) {
    if (dir ? !stat.isDirectory() : !stat.isFile()) return false;
    if (uid !== undefined && stat.uid !== uid) return false;
    return (stat.mode & 0o022) === 0;
  }
  function dirUsable(create) {
    try {
      if (create) fs.mkdirSync(cache.dir, { recursive: true, mode: 0o700 });
      return trusted(fs.lstatSync(cache.dir), true);
    } catch { return false; }
  }
  function load(file) {
    if (!dirUsable(false)) return undefined;
    try {
      if (!trusted(fs.lstatSync(file), false)) return undefined;
      const text = fs.readFileSync(file, 'utf8');
      const nl = text.indexOf('\n');
      if (!text.startsWith(HEADER) || nl < 0) return undefined;
      const body = text.slice(nl + 1);
      if (text.slice(HEADER.length, nl) !== sha256(body)) return undefined;
      const mod = { exports: {} };
      new Function('module', 'exports', 'require', body)(mod, mod.exports, cache.require);
      return typeof mod.exports === 'function' ? mod.exports : undefined;
    } catch { return undefined; }
  }
  function store(file, body) {
    if (!dirUsable(true)) return false;
    const tmp = file + '.' + process.pid + '.' + crypto.randomBytes(6).toString('hex') + '.tmp';
    try {
      const names = fs.readdirSync(cache.dir).filter((n) => n.endsWith('.cjs'));
      if (names.length >= cache.maxFiles) {
        const byAge = names.map((n) => { try { return [fs.statSync(path.join(cache.dir, n)).mtimeMs, n]; } catch { return [0, n]; } }).sort((a, b) => a[0] - b[0]);
        for (const [, n] of byAge.slice(0, names.length - cache.maxFiles + 1)) fs.rmSync(path.join(cache.dir, n), { force: true });
      }
      fs.writeFileSync(tmp, HEADER + sha256(body) + '\n' + body, { mode: 0o600, flag: 'wx' });
      fs.renameSync(tmp, file);
      return true;
    } catch {
      try { fs.rmSync(tmp, { force: true }); } catch {}
      return false;
    }
  }

  return function compileCached(schema, meta) {
    if (meta !== undefined || !schema || typeof schema !== 'object' || typeof schema.$id !== 'string' || !schema.$id.startsWith('/schemas/')) {
      return compile.call(this, schema, meta);
    }
    let file;
    try {
      if (!selfContained(schema)) return compile.call(this, schema, meta);
      file = path.join(cache.dir, sha256(JSON.stringify([cache.ajvVersion, optionsOf(this), JSON.stringify(schema)])) + '.cjs');
    } catch { return compile.call(this, schema, meta); }
    const loaded = load(file);
    if (loaded) {
      loaded.schema = schema; // what the SDK reads off a compiled validator, besides errors
      cache.hits++;
      return loaded;
    }
    const code = this.opts.code;
    const before = code.source;
    code.source = true;
    try {
      const validate = compile.call(this, schema, meta);
      try {
        if (store(file, cache.standalone(this, validate))) cache.stores++; // standalone code needs the option still on
      } catch {}
      return validate;
    } finally {
      code.source = before;
    }
  };
}

/** where: { loader (the SDK's schema-loader.js), dir, maxFiles }. Ajv resolved from the loader, as the SDK does. */
function installValidatorCache(where) {
  // Windows has no owner-only file modes to check: nothing would pass as trusted, so nothing is kept.
  if (process.platform === 'win32') return undefined;
  const sdkRequire = require('node:module').createRequire(where.loader);
  const ajv = sdkRequire('ajv');
  const Ajv = ajv.default || ajv;
  const cache = {
    dir: where.dir, maxFiles: where.maxFiles, require: sdkRequire, ajvVersion: String(sdkRequire('ajv/package.json').version),
    standalone: sdkRequire('ajv/dist/standalone').default, hits: 0, stores: 0,
  };
  Ajv.prototype.compile = cachedCompile(Ajv.prototype.compile, cache);
  return cache;
}
`;
